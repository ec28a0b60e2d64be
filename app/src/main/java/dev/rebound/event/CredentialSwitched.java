package dev.rebound.event;

/**
 * The session moved to another credential of the same provider after a usage limit (§5 of the retry policy).
 *
 * @param provider the provider key
 * @param from the label of the blocked credential
 * @param to the label now in use
 */
public record CredentialSwitched(String provider, String from, String to) implements SessionEvent {
    @Override
    public String type() {
        return "credential_switched";
    }
}
