package dev.rebound.simulator;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rebound.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fake LLM provider on 127.0.0.1 speaking four wire formats on one port, each a {@link WireDialect}: OpenAI's Chat
 * Completions ({@code POST /v1/chat/completions}), Anthropic's Messages ({@code POST /v1/messages}), OpenAI's Responses
 * ({@code POST /v1/responses}) and Google's Gemini ({@code POST /v1beta/models/{model}:streamGenerateContent} and
 * {@code :generateContent}), plus the model lists {@code GET /v1/models} and {@code GET /v1beta/models}. Each reply
 * request, in any format, consumes one step of its {@link FaultScript}; with none queued it streams a
 * {@link ReplyComposer} reply at {@link #tokensPerSecond()}.
 *
 * <p>Built on the JDK's {@code com.sun.net.httpserver}, one virtual thread per request. Independent of the rest of
 * Rebound (it must not know the provider code it is there to exercise), so it also runs standalone
 * ({@code rebound simulate}).
 */
public final class SimulatorServer implements AutoCloseable {
    /** The model the simulator lists. It answers under whatever model name a request asks for. */
    public static final String MODEL_ID = "rebound-simulator";
    /** The fastest streaming rate: far above any real model, far below what would starve the pacer's arithmetic. */
    public static final double MAX_TOKENS_PER_SECOND = 1_000_000;

    private static final Logger LOG = LoggerFactory.getLogger(SimulatorServer.class);

    private final HttpServer http;
    private final ClientConnections connections;
    private final ExecutorService executor;
    private final FaultScript faults;
    private final FaultResponses responses;
    private final ChatCompletionsDialect chatCompletions;
    private final AnthropicDialect anthropic;
    private final ResponsesDialect openAiResponses;
    private final GeminiDialect gemini;
    private final ReplyResponder responder;
    private final ObjectMapper mapper = Json.newMapper();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger active = new AtomicInteger();
    private volatile double tokensPerSecond;

    /**
     * The settings of a server.
     *
     * @param port the port on 127.0.0.1; 0 for an ephemeral one
     * @param tokensPerSecond the streaming rate; 0 for as fast as possible
     * @param seed makes replies deterministic
     */
    public record Config(int port, double tokensPerSecond, long seed) {
        /** The built-in simulator's rate: about a fast hosted model. */
        public static final double DEFAULT_TOKENS_PER_SECOND = 120;

        /** @throws IllegalArgumentException for a port outside 0-65535 or a rate {@link #checkRate} refuses */
        public Config {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0 (any free port) or 1-65535, not " + port);
            }
            checkRate(tokensPerSecond);
        }
    }

    private SimulatorServer(
            HttpServer http,
            ClientConnections connections,
            ExecutorService executor,
            FaultScript faults,
            Config config,
            Clock clock,
            Ticker ticker) {
        this.http = http;
        this.connections = connections;
        this.executor = executor;
        this.faults = faults;
        this.responses = new FaultResponses(mapper, clock);
        this.chatCompletions = new ChatCompletionsDialect(mapper, clock, responses);
        this.anthropic = new AnthropicDialect(mapper, clock);
        this.openAiResponses = new ResponsesDialect(mapper, clock, responses);
        this.gemini = new GeminiDialect(mapper);
        this.responder = new ReplyResponder(new ReplyComposer(config.seed()), new StreamPacer(ticker));
        this.tokensPerSecond = config.tokensPerSecond();
    }

    /** Starts a server on the real clock. */
    public static SimulatorServer start(Config config, FaultScript faults) throws IOException {
        return start(config, faults, Clock.systemUTC(), Ticker.system());
    }

    /**
     * Starts a server.
     *
     * @param clock stamps completions and usage-limit reset times
     * @param ticker paces streams
     * @throws IOException when the port cannot be bound (in use, not allowed)
     */
    public static SimulatorServer start(Config config, FaultScript faults, Clock clock, Ticker ticker)
            throws IOException {
        Objects.requireNonNull(faults, "faults");
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("rebound-simulator-", 0).factory());
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ClientConnections connections;
        try {
            connections = ClientConnections.open(config.port(), http.getAddress(), executor);
        } catch (IOException e) {
            executor.shutdownNow();
            throw e;
        }
        SimulatorServer server = new SimulatorServer(http, connections, executor, faults, config, clock, ticker);
        http.createContext("/", server::handle);
        http.setExecutor(executor);
        http.start();
        LOG.info("Simulator listening on {}", server.baseUrl());
        return server;
    }

    /**
     * The base URL to configure a provider with: {@code http://127.0.0.1:PORT/v1}, which Rebound's providers of every
     * format accept (Anthropic's and Gemini's also take the bare origin).
     */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /** The port it listens on, on 127.0.0.1. */
    public int port() {
        return connections.port();
    }

    /** How many requests it has received since it started. */
    public long requestCount() {
        return requests.get();
    }

    /** How many requests it is answering now (streaming, stalled, delayed). */
    public int activeRequests() {
        return active.get();
    }

    /** The script the requests consume. */
    public FaultScript faults() {
        return faults;
    }

    /** The streaming rate of the replies that start from now on. */
    public double tokensPerSecond() {
        return tokensPerSecond;
    }

    /** Changes the streaming rate of the replies that start from now on; 0 for as fast as possible. */
    public void tokensPerSecond(double rate) {
        checkRate(rate);
        this.tokensPerSecond = rate;
    }

    /** Stops at once: stalled and delayed requests are released and their connections closed. */
    @Override
    public void close() {
        connections.close();
        http.stop(0);
        executor.shutdownNow();
        LOG.info("Simulator on port {} stopped", port());
    }

    /**
     * Checks a streaming rate.
     *
     * @throws IllegalArgumentException unless it is from 0 to {@value #MAX_TOKENS_PER_SECOND}, with the reason
     */
    public static void checkRate(double rate) {
        if (!(rate >= 0 && rate <= MAX_TOKENS_PER_SECOND)) {
            throw new IllegalArgumentException("tokens per second must be from 0 (as fast as possible) to "
                    + String.format(Locale.ROOT, "%,.0f", MAX_TOKENS_PER_SECOND) + ", not "
                    + (Double.isFinite(rate) ? BigDecimal.valueOf(rate).toPlainString() : String.valueOf(rate)));
        }
    }

    private void handle(HttpExchange exchange) {
        active.incrementAndGet();
        try {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if ("GET".equals(method) && "/v1/models".equals(path)) {
                sendJson(exchange, 200, Map.of(), ModelListings.openAi(mapper));
            } else if ("GET".equals(method) && "/v1beta/models".equals(path)) {
                sendJson(exchange, 200, Map.of("Content-Type", GeminiErrors.JSON_UTF8), ModelListings.gemini(mapper));
            } else if ("POST".equals(method) && dialect(path) != null) {
                reply(exchange, dialect(path));
            } else {
                send(exchange, responses.notFound(method, path));
            }
        } catch (IOException e) {
            LOG.debug("Simulator: the client went away ({})", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("Simulator: request failed", e);
        } finally {
            exchange.close();
            active.decrementAndGet();
        }
    }

    /** The dialect that answers a POST to {@code path}, or null. */
    private WireDialect dialect(String path) {
        return switch (path) {
            case "/v1/chat/completions" -> chatCompletions;
            case "/v1/messages" -> anthropic;
            case "/v1/responses" -> openAiResponses;
            default -> GeminiDialect.PATH.matcher(path).matches() ? gemini : null;
        };
    }

    private void reply(HttpExchange exchange, WireDialect dialect) throws IOException, InterruptedException {
        long number = requests.incrementAndGet();
        JsonNode body;
        try {
            body = mapper.readTree(exchange.getRequestBody().readAllBytes());
        } catch (JacksonException e) {
            body = null;
        }
        var incoming = new WireDialect.Incoming(exchange.getRequestURI(), exchange.getRequestHeaders(), body, number);
        switch (dialect.read(incoming)) {
            case WireDialect.Reading.Refused refused -> send(exchange, refused.response());
            case WireDialect.Reading.Accepted accepted -> answer(exchange, dialect, accepted.request());
        }
    }

    private void answer(HttpExchange exchange, WireDialect dialect, ReplyRequest request)
            throws IOException, InterruptedException {
        FaultStep step = faults.take(request.key());
        LOG.debug(
                "Simulator: request {} for {} gets {}",
                request.number(),
                request.model(),
                step.fault().name());
        Fault fault = step.fault();
        if (fault instanceof Fault.ResetBeforeHeaders) {
            return;
        }
        CountDownLatch clientGone = connections.gone(exchange.getRemoteAddress());
        if (fault instanceof Fault.Delay delay && clientGone.await(delay.ms(), TimeUnit.MILLISECONDS)) {
            LOG.debug("Simulator: request {} ends its delay, the client left", request.number());
            return;
        }
        boolean reportedInStream =
                fault instanceof Fault.Overload overload && overload.inStream() && request.streamed();
        Optional<ErrorResponse> error = reportedInStream ? Optional.empty() : dialect.error(fault, request);
        if (error.isPresent()) {
            send(exchange, error.get());
            return;
        }
        responder.respond(exchange, dialect.format(request), request, fault, tokensPerSecond, clientGone);
    }

    private static void send(HttpExchange exchange, ErrorResponse response) throws IOException {
        sendJson(exchange, response.status(), response.headers(), response.body());
    }

    private static void sendJson(HttpExchange exchange, int status, Map<String, String> headers, String json)
            throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The key of an {@code Authorization: Bearer KEY} header, or null. */
    static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String value = authorization.strip();
        if (value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String key = value.substring(7).strip();
            return key.isEmpty() ? null : key;
        }
        return null;
    }
}
