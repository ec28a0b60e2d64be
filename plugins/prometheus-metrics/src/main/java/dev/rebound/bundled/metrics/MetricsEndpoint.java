package dev.rebound.bundled.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a registry at {@code http://127.0.0.1:PORT/metrics} (loopback only) and writes that address to a file, so
 * users and tests find an ephemeral port. A port that cannot be bound is logged with what to do, and nothing is
 * served; the file is removed then and on {@link #close()}, so it never names a dead address.
 */
final class MetricsEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsEndpoint.class);
    private static final byte[] LOOPBACK = {127, 0, 0, 1};

    private final Path addressFile;
    private final HTTPServer server;

    private MetricsEndpoint(Path addressFile, HTTPServer server) {
        this.addressFile = addressFile;
        this.server = server;
    }

    /**
     * Starts serving, or logs why it cannot.
     *
     * @param registry what to serve
     * @param port the port, 0 for any free one
     * @param addressFile where to write the address of {@code /metrics}
     */
    static MetricsEndpoint start(PrometheusRegistry registry, int port, Path addressFile) {
        deleteQuietly(addressFile);
        HTTPServer server;
        try {
            server = HTTPServer.builder()
                    .inetAddress(InetAddress.getByAddress(LOOPBACK))
                    .port(port)
                    .registry(registry)
                    .buildAndStart();
        } catch (IOException e) {
            LOG.error(
                    "Prometheus metrics are not served: 127.0.0.1:{} cannot be used ({}). Set another port in"
                            + " settings.json under plugins → prometheus-metrics → port, or 0 for any free port.",
                    port,
                    e.toString());
            return new MetricsEndpoint(addressFile, null);
        }
        String address = "http://127.0.0.1:" + server.getPort() + "/metrics";
        try {
            Path temporary = addressFile.resolveSibling(addressFile.getFileName() + ".tmp");
            Files.writeString(temporary, address + "\n");
            Files.move(temporary, addressFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("Could not write the metrics address to {} ({}); it is {}", addressFile, e.toString(), address);
        }
        LOG.info("Prometheus metrics at {}", address);
        return new MetricsEndpoint(addressFile, server);
    }

    /** The port being served, if any. */
    Optional<Integer> port() {
        return Optional.ofNullable(server).map(HTTPServer::getPort);
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            deleteQuietly(addressFile);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("Could not remove the old metrics address file {} ({})", file, e.toString());
        }
    }
}
