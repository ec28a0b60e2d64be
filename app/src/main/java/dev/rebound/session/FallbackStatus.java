package dev.rebound.session;

/**
 * An active model fallback, for hosts ({@code get_state}, the UI's fallback chip).
 *
 * @param primary the user's model it replaces ({@code provider/id})
 * @param current the fallback model in use
 * @param role the fallback-chain key used
 * @param revertAt epoch milliseconds from which the session may go back to the primary (the later of its cooldown and
 *     a refusal pin), or null when the revert policy is {@code never}
 */
public record FallbackStatus(String primary, String current, String role, Long revertAt) {}
