package dev.rebound.session;

/** Makes a fresh session with the app's shared dependencies (RPC {@code new_session}, the UI's New chat). */
@FunctionalInterface
public interface SessionFactory {
    /** A new, empty session on the default model. */
    ChatSession create();
}
