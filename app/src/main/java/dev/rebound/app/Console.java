package dev.rebound.app;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The one owner of the process's standard output. RPC frames and print-mode replies go through {@link #stdout()};
 * once taken, {@code System.out} is redirected to stderr so that no library can corrupt the protocol stream.
 */
public final class Console {
    private static final Object LOCK = new Object();
    private static OutputStream protocolOut;

    private Console() {}

    /** Takes the real stdout for the protocol and points {@code System.out} at stderr. Idempotent. */
    public static OutputStream stdout() {
        synchronized (LOCK) {
            if (protocolOut == null) {
                // The raw descriptor, not a PrintStream: a host that closes its end must be noticed, not ignored.
                protocolOut = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
                System.setOut(System.err);
            }
            return protocolOut;
        }
    }

    /** A writer on stdout for help and version text (before any protocol starts). */
    public static PrintWriter helpWriter() {
        return new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    }

    /** A writer on stderr for messages to people. */
    public static PrintWriter errWriter() {
        return new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    }
}
