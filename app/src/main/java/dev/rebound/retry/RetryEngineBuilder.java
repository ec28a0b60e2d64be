package dev.rebound.retry;

import dev.rebound.settings.RetrySettings;
import java.time.Clock;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/** Builds a {@link RetryEngine}; settings, clock, random source and timer are required, the rest has defaults. */
public final class RetryEngineBuilder {
    Supplier<RetrySettings> settings;
    Clock clock;
    RandomGenerator random;
    RetryTimer timer;
    ErrorClassifier classifier;
    RetryHints hints;
    UsageLimitPolicy usageLimits;
    ModelFallback fallback;
    OverflowHandler overflow;

    /** Read at every decision. */
    public RetryEngineBuilder settings(Supplier<RetrySettings> s) {
        this.settings = s;
        return this;
    }

    public RetryEngineBuilder clock(Clock c) {
        this.clock = c;
        return this;
    }

    public RetryEngineBuilder random(RandomGenerator r) {
        this.random = r;
        return this;
    }

    public RetryEngineBuilder timer(RetryTimer t) {
        this.timer = t;
        return this;
    }

    public RetryEngineBuilder classifier(ErrorClassifier c) {
        this.classifier = c;
        return this;
    }

    public RetryEngineBuilder usageLimits(UsageLimitPolicy u) {
        this.usageLimits = u;
        return this;
    }

    public RetryEngineBuilder fallback(ModelFallback f) {
        this.fallback = f;
        return this;
    }

    public RetryEngineBuilder overflow(OverflowHandler o) {
        this.overflow = o;
        return this;
    }

    public RetryEngine build() {
        return new RetryEngine(this);
    }
}
