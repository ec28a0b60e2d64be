package dev.rebound.api;

/**
 * The session moved to another credential of the same provider after a usage limit (§5 of the retry policy).
 *
 * @param session the chat
 * @param turnId the turn
 * @param provider the provider key in settings
 * @param from the label of the blocked credential; never a key
 * @param to the label now in use; never a key
 */
public record CredentialSwitched(SessionRef session, String turnId, String provider, String from, String to)
        implements SessionEvent {
    @Override
    public String type() {
        return "credential_switched";
    }
}
