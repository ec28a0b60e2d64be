package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TimeLimitTest {
    private final TimeLimit limit = new TimeLimit(Duration.ofMillis(200));

    @Test
    void aStepThatReturnsGivesItsValue() {
        assertThat(limit.run("start()", () -> "started")).isEqualTo(new TimeLimit.Outcome.Done<>("started"));
    }

    @Test
    void whatAStepThrowsBecomesItsReasonLinkageErrorsIncluded() {
        TimeLimit.Outcome<Object> thrown = limit.run("start()", () -> {
            throw new IllegalStateException("no port");
        });
        TimeLimit.Outcome<Object> linkage = limit.run("start()", () -> {
            throw new NoClassDefFoundError("com/example/Gone");
        });
        assertThat(thrown)
                .isInstanceOfSatisfying(
                        TimeLimit.Outcome.Failed.class,
                        f -> assertThat(f.reason()).isEqualTo("java.lang.IllegalStateException: no port"));
        assertThat(linkage)
                .isInstanceOfSatisfying(
                        TimeLimit.Outcome.Failed.class,
                        f -> assertThat(f.reason()).isEqualTo("java.lang.NoClassDefFoundError: com/example/Gone"));
    }

    @Test
    void aStepThatNeverReturnsIsGivenUpOnAfterTheLimit() {
        CountDownLatch never = new CountDownLatch(1);
        long started = System.nanoTime();
        TimeLimit.Outcome<Object> outcome = limit.run("start()", () -> {
            never.await();
            return null;
        });
        assertThat(outcome)
                .isInstanceOfSatisfying(
                        TimeLimit.Outcome.Failed.class,
                        f -> assertThat(f.reason()).isEqualTo("start() did not return within 200 ms"));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        never.countDown();
    }

    @Test
    void whatAStepReturnsAfterTheLimitGoesToItsLateHandlerOnly() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> late = new CompletableFuture<>();

        TimeLimit.Outcome<String> outcome = limit.run(
                "start()",
                Duration.ofMillis(50),
                () -> {
                    release.await();
                    return "started late";
                },
                late::complete);
        release.countDown();

        assertThat(outcome).isInstanceOf(TimeLimit.Outcome.Failed.class);
        assertThat(late.get(10, TimeUnit.SECONDS)).isEqualTo("started late");
        assertThat(limit.run("start()", Duration.ofSeconds(5), () -> "in time", late::obtrudeValue))
                .isEqualTo(new TimeLimit.Outcome.Done<>("in time"));
        assertThat(late.get()).isEqualTo("started late");
    }
}
