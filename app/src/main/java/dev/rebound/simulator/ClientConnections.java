package dev.rebound.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulator's listening socket: a byte-for-byte TCP relay on 127.0.0.1 in front of the JDK HTTP server, which
 * tells a waiting request the moment its client closes the connection.
 *
 * <p>The JDK server reads a connection only between requests, so a stalled or delayed response would hold its thread
 * (and the socket, in CLOSE-WAIT) until its limit after the client gave up. The relay reads the client's side all the
 * time, so it sees the close at once — without sending the client a byte: a keep-alive comment would reset the client's
 * idle timeout and hide the very stall the simulator is asked to show.
 */
final class ClientConnections implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClientConnections.class);

    private final ServerSocket listener;
    private final InetSocketAddress server;
    private final ExecutorService threads;
    /** The open links, by the relay's local port toward the server (the exchange's remote port). */
    private final Map<Integer, Link> links = new ConcurrentHashMap<>();
    /** Released by {@link #close()}. */
    private final CountDownLatch closed = new CountDownLatch(1);

    private ClientConnections(ServerSocket listener, InetSocketAddress server, ExecutorService threads) {
        this.listener = listener;
        this.server = server;
        this.threads = threads;
    }

    /**
     * Listens on 127.0.0.1.
     *
     * @param port the port; 0 for an ephemeral one
     * @param server the HTTP server the bytes go to
     * @param threads runs the relay (one thread per direction of each connection; virtual threads fit)
     * @throws IOException when the port cannot be bound
     */
    static ClientConnections open(int port, InetSocketAddress server, ExecutorService threads) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        ClientConnections connections = new ClientConnections(listener, server, threads);
        threads.execute(connections::accept);
        return connections;
    }

    int port() {
        return listener.getLocalPort();
    }

    /**
     * Released when the client of the request the HTTP server received from {@code remote} (its exchange's remote
     * address) has closed its connection, or when the simulator stops; already released when that client has left.
     */
    CountDownLatch gone(SocketAddress remote) {
        Link link = remote instanceof InetSocketAddress address ? links.get(address.getPort()) : null;
        // A link is known before its first request byte reaches the server, and forgotten once its client left.
        return link != null ? link.gone : new CountDownLatch(0);
    }

    /** How many client connections are open. */
    int open() {
        return links.size();
    }

    @Override
    public void close() {
        closed.countDown();
        closeQuietly(listener);
        links.values().forEach(Link::close);
    }

    private void accept() {
        while (closed.getCount() > 0) {
            try {
                Socket client = listener.accept();
                threads.execute(() -> relay(client));
            } catch (IOException e) {
                if (closed.getCount() > 0) {
                    LOG.warn("Simulator: accepting a connection failed", e);
                }
                return;
            }
        }
    }

    private void relay(Socket client) {
        Socket toServer = new Socket();
        Link link = new Link(client, toServer);
        try {
            client.setTcpNoDelay(true);
            toServer.setTcpNoDelay(true);
            toServer.connect(server);
        } catch (IOException e) {
            LOG.warn("Simulator: could not reach its HTTP server", e);
            link.close();
            return;
        }
        int key = toServer.getLocalPort();
        links.put(key, link);
        if (closed.getCount() == 0) {
            link.close();
        }
        threads.execute(() -> {
            pump(toServer, client);
            link.close();
        });
        pump(client, toServer);
        link.close();
        links.remove(key);
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            LOG.trace("Simulator: relay ended ({})", e.toString());
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.trace("Simulator: close failed ({})", e.toString());
        }
    }

    /** One client connection and the relay's connection to the server. */
    private static final class Link {
        final Socket client;
        final Socket toServer;
        final CountDownLatch gone = new CountDownLatch(1);

        Link(Socket client, Socket toServer) {
            this.client = client;
            this.toServer = toServer;
        }

        /** Closes both sides and releases the request waiting on it. */
        void close() {
            gone.countDown();
            closeQuietly(client);
            closeQuietly(toServer);
        }
    }
}
