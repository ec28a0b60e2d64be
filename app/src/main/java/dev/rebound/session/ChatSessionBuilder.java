package dev.rebound.session;

import dev.rebound.auth.CredentialSource;
import dev.rebound.settings.Settings;
import dev.rebound.transcript.ModelRef;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Supplier;

/** Builds a {@link ChatSession}; settings and providers are required, the rest has defaults. */
public final class ChatSessionBuilder {
    String sessionId;
    Supplier<Settings> settings;
    ProviderDirectory providers;
    CredentialSource credentials;
    AttemptPolicy attempts;
    RetryControl retries;
    Clock clock;
    IdGenerator ids;
    ModelRef model;
    SessionModel sessionModel;
    HistorySink historySink;
    Path sessionFile;
    RestoredSession restored;

    /** Where the history is saved as it changes. */
    public ChatSessionBuilder historySink(HistorySink sink) {
        this.historySink = sink;
        return this;
    }

    /** The file the sink writes, reported to hosts ({@code get_state.sessionFile}). */
    public ChatSessionBuilder sessionFile(Path file) {
        this.sessionFile = file;
        return this;
    }

    /** Rebuilds the session from saved history (its id, entries and runtime context). */
    public ChatSessionBuilder restore(RestoredSession session) {
        this.restored = session;
        this.sessionId = session.sessionId();
        return this;
    }

    public ChatSessionBuilder sessionId(String id) {
        this.sessionId = id;
        return this;
    }

    /** Read at every call, so settings changes apply to the next call. */
    public ChatSessionBuilder settings(Supplier<Settings> s) {
        this.settings = s;
        return this;
    }

    public ChatSessionBuilder providers(ProviderDirectory p) {
        this.providers = p;
        return this;
    }

    public ChatSessionBuilder credentials(CredentialSource c) {
        this.credentials = c;
        return this;
    }

    /** Decides after each call whether the turn continues (default: never retries). */
    public ChatSessionBuilder attemptPolicy(AttemptPolicy p) {
        this.attempts = p;
        return this;
    }

    /** The user's controls over retries and their status (default: nothing to control). */
    public ChatSessionBuilder retryControl(RetryControl c) {
        this.retries = c;
        return this;
    }

    /** A retry engine, which is both the decision seam and the user's controls. */
    public <E extends AttemptPolicy & RetryControl> ChatSessionBuilder retryEngine(E engine) {
        this.attempts = engine;
        this.retries = engine;
        return this;
    }

    public ChatSessionBuilder clock(Clock c) {
        this.clock = c;
        return this;
    }

    public ChatSessionBuilder ids(IdGenerator g) {
        this.ids = g;
        return this;
    }

    /** The model to start on (ignored when a {@link #sessionModel} is given). */
    public ChatSessionBuilder model(ModelRef m) {
        this.model = m;
        return this;
    }

    /** The session's models, shared with the fallback policy. */
    public ChatSessionBuilder sessionModel(SessionModel m) {
        this.sessionModel = m;
        return this;
    }

    public ChatSession build() {
        return new ChatSession(this);
    }
}
