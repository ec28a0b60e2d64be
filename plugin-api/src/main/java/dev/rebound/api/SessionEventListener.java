package dev.rebound.api;

import org.pf4j.ExtensionPoint;

/**
 * Observes the events of a chat session. Shaped like OkHttp's {@code EventListener}: every method has a no-op default,
 * so a plugin overrides only what it needs, and adding an event type later breaks no plugin.
 *
 * <p>For each event the host calls {@link #dispatch(SessionEvent)}, which calls the catch-all
 * {@link #onEvent(SessionEvent)} first and then the one specific method of the event's type.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Thread.</b> Methods are called on the plugin's own delivery thread, never on the UI thread and never on
 *       the session's thread. One plugin's methods are never called concurrently.</li>
 *   <li><b>Order.</b> Events arrive in the order the session emitted them.</li>
 *   <li><b>Fast.</b> Each call must return quickly; do slow work (disk, network) elsewhere or batch it. A slow
 *       listener delays only itself.</li>
 *   <li><b>Must not throw.</b> A throw (including a {@link LinkageError}) is caught, logged with the plugin id and
 *       counted; after repeated failures (many in a row, or a high share of its recent events) the plugin is
 *       disabled and the user is told.</li>
 *   <li><b>Interrupts.</b> Restoring the interrupt flag ({@code Thread.currentThread().interrupt()}) is fine: the
 *       host clears it after each call, and only shutdown ends delivery.</li>
 *   <li><b>Not re-entrant.</b> A listener must not call back into the session (send, cancel, switch model...).</li>
 *   <li><b>Construction.</b> The host creates each listener once per app run. A listener class with a public
 *       constructor taking a {@link PluginContext} gets its plugin's context there; otherwise its no-argument
 *       constructor is used.</li>
 *   <li><b>Shutdown.</b> A listener that also implements {@link AutoCloseable} is closed once, on its delivery thread,
 *       after its last event, when the app shuts down or the plugin is stopped.</li>
 *   <li><b>Which chat.</b> Every event names its {@link SessionEvent#session() session} and, during a turn, its
 *       {@link SessionEvent#turnId() turn}. One listener sees the events of every chat, interleaved when chats run at
 *       once: keep per-chat or per-turn state in a map keyed by them, never in a single field.</li>
 *   <li><b>Only deltas may be dropped.</b> Each plugin has a bounded queue. When it is full, the oldest queued
 *       {@link MessageUpdate} is dropped (and counted) to make room; turn, message, retry, fallback, credential and
 *       notice events are never dropped while a delta remains to drop. Only a plugin whose queue holds nothing but
 *       such events (a listener stuck for good) loses them, counted and reported to the user.</li>
 *   <li><b>New event types will come.</b> {@link SessionEvent} is sealed, so a {@code switch} over it may be written
 *       without a {@code default} branch and the compiler calls it exhaustive; but when a later app adds an event
 *       type, that switch throws {@link MatchException} for it at run time, on every such event, and the plugin is
 *       soon disabled. Override the {@code on…} methods, or give every {@code switch} over an event a
 *       {@code default ->} branch.</li>
 * </ul>
 */
public interface SessionEventListener extends ExtensionPoint {

    /**
     * Delivers one event: {@link #onEvent(SessionEvent)} first, then the specific method of its type. Hosts call this;
     * plugins normally do not override it.
     *
     * @param event the event, never null
     */
    default void dispatch(SessionEvent event) {
        onEvent(event);
        switch (event) {
            case AgentStart e -> onAgentStart(e);
            case MessageStart e -> onMessageStart(e);
            case MessageUpdate e -> onMessageUpdate(e);
            case MessageEnd e -> onMessageEnd(e);
            case AgentEnd e -> onAgentEnd(e);
            case ModelChanged e -> onModelChanged(e);
            case Notice e -> onNotice(e);
            case AutoRetryStart e -> onAutoRetryStart(e);
            case AutoRetryEnd e -> onAutoRetryEnd(e);
            case RetryChainEnd e -> onRetryChainEnd(e);
            case CredentialSwitched e -> onCredentialSwitched(e);
            case RetryFallbackApplied e -> onRetryFallbackApplied(e);
            case RetryFallbackSucceeded e -> onRetryFallbackSucceeded(e);
            case RetryFallbackReverted e -> onRetryFallbackReverted(e);
        }
    }

    /**
     * Called for every event, before its specific method.
     *
     * @param event the event
     */
    default void onEvent(SessionEvent event) {}

    /** @param event a provider call began */
    default void onAgentStart(AgentStart event) {}

    /** @param event a message began */
    default void onMessageStart(MessageStart event) {}

    /** @param event a streamed piece of a message */
    default void onMessageUpdate(MessageUpdate event) {}

    /** @param event a message ended */
    default void onMessageEnd(MessageEnd event) {}

    /** @param event a provider call ended */
    default void onAgentEnd(AgentEnd event) {}

    /** @param event the session's model changed */
    default void onModelChanged(ModelChanged event) {}

    /** @param event a notice for the user */
    default void onNotice(Notice event) {}

    /** @param event a retry was scheduled */
    default void onAutoRetryStart(AutoRetryStart event) {}

    /** @param event a retry chain ended */
    default void onAutoRetryEnd(AutoRetryEnd event) {}

    /** @param event the summary of a finished retry chain */
    default void onRetryChainEnd(RetryChainEnd event) {}

    /** @param event the session moved to another credential */
    default void onCredentialSwitched(CredentialSwitched event) {}

    /** @param event a fallback model was applied */
    default void onRetryFallbackApplied(RetryFallbackApplied event) {}

    /** @param event a fallback model answered */
    default void onRetryFallbackSucceeded(RetryFallbackSucceeded event) {}

    /** @param event the session went back to the primary model */
    default void onRetryFallbackReverted(RetryFallbackReverted event) {}
}
