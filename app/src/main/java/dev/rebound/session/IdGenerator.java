package dev.rebound.session;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;

/** Makes ids for sessions, turns and messages; injected so tests get predictable ids. */
@FunctionalInterface
public interface IdGenerator {
    /** A new id, unique within the app's lifetime. */
    String next();

    /** Random 16-hex-digit ids. */
    static IdGenerator random() {
        SecureRandom random = new SecureRandom();
        return () -> {
            byte[] bytes = new byte[8];
            random.nextBytes(bytes);
            return HexFormat.of().formatHex(bytes);
        };
    }

    /** Random UUIDs, for session ids. */
    static IdGenerator uuids() {
        return () -> UUID.randomUUID().toString();
    }
}
