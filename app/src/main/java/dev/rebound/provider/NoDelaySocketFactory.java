package dev.rebound.provider;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;

/**
 * Makes sockets with Nagle's algorithm off, as interactive clients should: a request goes out as small writes (headers,
 * then body), and none of them may wait for the server's delayed ACK (up to ~40 ms on Linux) before a prompt or a
 * retry leaves.
 */
final class NoDelaySocketFactory extends SocketFactory {
    private final SocketFactory delegate = SocketFactory.getDefault();

    @Override
    public Socket createSocket() throws IOException {
        return noDelay(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return noDelay(delegate.createSocket(address, port, localAddress, localPort));
    }

    private static Socket noDelay(Socket socket) throws SocketException {
        socket.setTcpNoDelay(true);
        return socket;
    }
}
