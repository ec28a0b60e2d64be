package dev.rebound.provider;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import javax.net.ssl.SSLException;
import okhttp3.HttpUrl;

/**
 * Turns the I/O exceptions of a provider call into messages a person can act on. The exception's class and message are
 * kept (the retry classifier reads words like "refused" or "reset" from them); nothing of the request is added, so no
 * header or key can appear.
 */
public final class TransportErrors {
    private static final int MAX_DETAIL_CHARS = 400;

    private TransportErrors() {}

    /**
     * A failure before any response arrived, for example {@code Connection failed: connection refused by
     * 127.0.0.1:8080 (ConnectException: Failed to connect to /127.0.0.1:8080)} or {@code Connection reset before the
     * response headers arrived (IOException: unexpected end of stream …)}.
     */
    public static String beforeResponse(IOException e, HttpUrl url) {
        String target = url.host() + ":" + url.port();
        String detail = " (" + describe(e) + ")";
        if (has(e, UnknownHostException.class)) {
            return "Connection failed: cannot resolve host " + url.host() + detail;
        }
        if (has(e, SSLException.class)) {
            return "Connection failed: TLS handshake with " + target + " failed" + detail;
        }
        if (has(e, ConnectException.class) && mentions(e, "refused")) {
            return "Connection failed: connection refused by " + target + detail;
        }
        if (has(e, ConnectException.class) || has(e, NoRouteToHostException.class)) {
            return "Connection failed: could not connect to " + target + detail;
        }
        return "Connection reset before the response headers arrived" + detail;
    }

    /** Whether a failure before the response was OkHttp's connect timeout (its only timeout left on). */
    public static boolean isConnectTimeout(IOException e) {
        return has(e, SocketTimeoutException.class);
    }

    /** A failure while the body streamed: {@code Connection lost while streaming after N characters (…)}. */
    public static String duringStream(IOException e, int characters) {
        return "Connection lost while streaming after " + characters + " characters (" + describe(e) + ")";
    }

    /**
     * An exception as {@code SimpleName: message}, followed by {@code ; caused by SimpleName: message} for each
     * distinct cause, on one line and cut to a readable length.
     */
    public static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(one(e));
        Throwable cause = e.getCause();
        for (int depth = 0; cause != null && cause != e && depth < 3; depth++) {
            String next = one(cause);
            if (!text.toString().contains(next)) {
                text.append("; caused by ").append(next);
            }
            e = cause;
            cause = cause.getCause();
        }
        return ErrorBodies.singleLine(text.toString(), MAX_DETAIL_CHARS);
    }

    private static String one(Throwable e) {
        String message = e.getMessage();
        String name = e.getClass().getSimpleName();
        return message == null || message.isBlank() ? name : name + ": " + message;
    }

    private static boolean has(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mentions(Throwable e, String word) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null
                    && t.getMessage().toLowerCase(Locale.ROOT).contains(word)) {
                return true;
            }
        }
        return false;
    }
}
