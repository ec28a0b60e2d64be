package dev.rebound.ui.view;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens web links of replies in the system browser, through the platform's opener command ({@code xdg-open},
 * {@code open}, {@code rundll32}) on a background thread, so a slow browser start never holds the UI. Only
 * {@code http}, {@code https} and {@code mailto} links are opened: a model's reply must not make the desktop run a
 * local file.
 */
public final class SystemBrowser implements LinkOpener {
    private static final Logger LOG = LoggerFactory.getLogger(SystemBrowser.class);
    private static final Set<String> SCHEMES = Set.of("http", "https", "mailto");

    private final Executor background;
    private final String osName;

    public SystemBrowser(Executor background, String osName) {
        this.background = background;
        this.osName = osName.toLowerCase(Locale.ROOT);
    }

    @Override
    public void open(String url) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            LOG.warn("Not opening a malformed link {}", url);
            return;
        }
        if (uri.getScheme() == null || !SCHEMES.contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            LOG.warn("Not opening {}: only web and mail links are opened", url);
            return;
        }
        background.execute(() -> {
            try {
                new ProcessBuilder(command(uri.toString()))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
            } catch (IOException e) {
                LOG.warn("Could not open {} in the browser", uri, e);
            }
        });
    }

    private List<String> command(String url) {
        if (osName.contains("win")) {
            return List.of("rundll32", "url.dll,FileProtocolHandler", url);
        }
        if (osName.contains("mac")) {
            return List.of("open", url);
        }
        return List.of("xdg-open", url);
    }
}
