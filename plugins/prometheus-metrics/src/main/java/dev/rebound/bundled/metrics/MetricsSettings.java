package dev.rebound.bundled.metrics;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin's settings, {@code settings.json → plugins → prometheus-metrics}: {@code port} (default
 * {@value #DEFAULT_PORT}, 0 for any free port). A value that is not a whole number from 0 to 65535 is logged and the
 * default used.
 *
 * @param port the TCP port to listen on, on 127.0.0.1
 */
record MetricsSettings(int port) {

    /** The port Prometheus's own registry of default ports lists for Java client exporters. */
    static final int DEFAULT_PORT = 9464;

    private static final Logger LOG = LoggerFactory.getLogger(MetricsSettings.class);

    static MetricsSettings from(Map<String, Object> pluginSettings) {
        Object port = pluginSettings.get("port");
        if (port == null) {
            return new MetricsSettings(DEFAULT_PORT);
        }
        if (port instanceof Number n
                && n.doubleValue() == Math.rint(n.doubleValue())
                && n.doubleValue() >= 0
                && n.doubleValue() <= 65_535) {
            return new MetricsSettings(n.intValue());
        }
        LOG.warn(
                "settings.json: plugins → prometheus-metrics → port is {}, which is not a port number (0 to 65535,"
                        + " 0 for any free port); using {}",
                port instanceof String s ? "\"" + s + "\"" : port,
                DEFAULT_PORT);
        return new MetricsSettings(DEFAULT_PORT);
    }
}
