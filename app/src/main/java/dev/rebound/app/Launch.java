package dev.rebound.app;

import dev.rebound.event.MessageUpdate;
import dev.rebound.event.Notice;
import dev.rebound.json.WireJson;
import dev.rebound.rpc.FrameWriter;
import dev.rebound.rpc.RpcServer;
import dev.rebound.session.ChatSession;
import dev.rebound.session.PromptResult;
import dev.rebound.session.SessionFactory;
import dev.rebound.session.TurnOutcome;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.simulator.ScenarioException;
import dev.rebound.simulator.Scenarios;
import dev.rebound.transcript.ModelRef;
import dev.rebound.ui.DesktopApp;
import dev.rebound.ui.ToolkitStartup;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts Rebound in the mode the command line chose. */
final class Launch {
    private static final Logger LOG = LoggerFactory.getLogger(Launch.class);
    /** Exit code of a turn that finally failed. */
    static final int EXIT_TURN_FAILED = 1;
    /** Exit code of a bad command line or configuration. */
    static final int EXIT_USAGE = 2;

    private final Path configDir;
    private final String model;
    private final Path session;
    private final Path pluginsDir;
    private final boolean noPlugins;
    private final Path scenario;

    Launch(Path configDir, String model, Path session, Path pluginsDir, boolean noPlugins, Path scenario) {
        this.configDir = configDir;
        this.model = model;
        this.session = session;
        this.pluginsDir = pluginsDir;
        this.noPlugins = noPlugins;
        this.scenario = scenario;
    }

    int rpc() {
        OutputStream stdout = Console.stdout();
        AppServices services;
        try {
            services = start();
        } catch (StartupException e) {
            Console.errWriter().println("rebound: " + e.getMessage());
            return EXIT_USAGE;
        }
        try (services) {
            services.prepareEventWriters();
            WireJson wire = services.wire();
            RpcServer server = new RpcServer(
                    System.in,
                    new FrameWriter(stdout, wire),
                    wire,
                    services.sessionFactory(),
                    services.settings(),
                    services.simulator(),
                    services::plugins);
            Thread hook = Thread.ofPlatform().unstarted(() -> {
                // SIGTERM/SIGINT: stop the turn, then write the key blocks and cooldowns it decided before the halt.
                server.shutdown();
                services.flushState();
            });
            Runtime.getRuntime().addShutdownHook(hook);
            ChatSession first;
            List<Notice> notices = new ArrayList<>(services.startupNotices());
            try {
                first = openSession(services, notices);
            } catch (StartupException e) {
                Console.errWriter().println("rebound: " + e.getMessage());
                return EXIT_USAGE;
            }
            int code = server.run(first, notices);
            removeHook(hook);
            return code;
        }
    }

    int print(String message) {
        OutputStream stdout = Console.stdout();
        PrintWriter err = Console.errWriter();
        AppServices services;
        try {
            services = start();
        } catch (StartupException e) {
            err.println("rebound: " + e.getMessage());
            return EXIT_USAGE;
        }
        List<Notice> notices = new ArrayList<>(services.startupNotices());
        ChatSession opened;
        try {
            opened = openSession(services, notices);
        } catch (StartupException e) {
            services.close();
            err.println("rebound: " + e.getMessage());
            return EXIT_USAGE;
        }
        try (services;
                ChatSession chat = opened) {
            for (Notice notice : notices) {
                err.println("rebound: " + notice.level() + ": " + notice.message());
            }
            java.util.concurrent.atomic.AtomicReference<String> chainError =
                    new java.util.concurrent.atomic.AtomicReference<>();
            chat.subscribe(event -> {
                if (event instanceof MessageUpdate u && MessageUpdate.TEXT.equals(u.kind())) {
                    write(stdout, u.delta());
                    return;
                }
                PrintModeNotices.describe(event).ifPresent(line -> err.println("rebound: " + line));
                if (event instanceof dev.rebound.event.AutoRetryEnd end && !end.success()) {
                    chainError.set(end.finalError());
                }
            });
            PromptResult result = chat.prompt(message, null);
            if (result instanceof PromptResult.Rejected rejected) {
                err.println("rebound: " + rejected.reason());
                return EXIT_USAGE;
            }
            CompletableFuture<TurnOutcome> completion = ((PromptResult.Accepted) result).completion();
            CountDownLatch reported = new CountDownLatch(1);
            Thread hook = Thread.ofPlatform().unstarted(() -> {
                // SIGTERM/SIGINT: stop the turn, and let the main thread report how it ended before the JVM halts.
                chat.abort();
                await(completion, reported);
                services.flushState();
            });
            Runtime.getRuntime().addShutdownHook(hook);
            TurnOutcome outcome = completion.join();
            try {
                if (outcome.succeeded()) {
                    write(stdout, "\n");
                    return 0;
                }
                err.println();
                String chain = chainError.get();
                err.println("rebound: "
                        + (chain != null ? chain : outcome.finalMessage().errorMessage()));
                return EXIT_TURN_FAILED;
            } finally {
                reported.countDown();
                removeHook(hook);
            }
        }
    }

    /**
     * @param ui the toolkit, already started (see {@link Main#main}): it and the theme come up while the services
     *     load
     */
    int desktop(ToolkitStartup ui) {
        ConfigDirectory dir = AppServices.directory(configDir, System.getenv());
        ui.prepare(AppServices.desktopPreferences(dir));
        boolean shown = false;
        try (AppServices services = start(dir)) {
            requireSessionFile(services);
            shown = true;
            return DesktopApp.run(ui, services.desktopContext(session));
        } catch (DesktopApp.CannotOpenException e) {
            Console.errWriter().println("rebound: " + e.getMessage());
            return EXIT_USAGE;
        } catch (StartupException e) {
            Console.errWriter().println("rebound: " + e.getMessage());
            return EXIT_USAGE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return EXIT_USAGE;
        } finally {
            if (!shown) {
                ui.abandon();
            }
        }
    }

    /** The session to start with: the one of --session, reopened, or a new one. */
    private ChatSession openSession(AppServices services, List<Notice> notices) throws StartupException {
        if (session == null) {
            SessionFactory.Opened created = services.sessionFactory().create();
            notices.addAll(created.notices());
            return created.session();
        }
        requireSessionFile(services);
        try {
            SessionFactory.Opened resumed = services.sessionFactory().resume(session);
            notices.addAll(resumed.notices());
            if (model != null) {
                // --model with --session: the user's explicit choice for this run wins over the saved one.
                resumed.session().setModel(ModelRef.parse(model));
            }
            return resumed.session();
        } catch (IOException e) {
            throw new StartupException(
                    "--session " + session + ": the file could not be read (" + e.getMessage() + ").");
        }
    }

    private void requireSessionFile(AppServices services) throws StartupException {
        if (session != null && !Files.isRegularFile(session)) {
            throw new StartupException("--session " + session + ": no such session file. Saved chats are in "
                    + services.configDirectory().sessionsDir() + ".");
        }
    }

    private AppServices start() throws StartupException {
        return start(AppServices.directory(configDir, System.getenv()));
    }

    private AppServices start(ConfigDirectory dir) throws StartupException {
        AppServices services = AppServices.start(dir, System.getenv());
        if (scenario != null) {
            if (!services.usesBuiltInSimulator()) {
                services.close();
                throw new StartupException("--scenario " + scenario + ": no provider of this session uses the "
                        + "built-in simulator (settings.json configures "
                        + services.settings().current().providers().keySet().stream()
                                .sorted()
                                .toList() + "), so the scenario would never run. Drop --scenario, "
                        + "or add a provider with \"api\": \"simulator\" and no baseUrl (docs/simulator.md).");
            }
            try {
                services.simulator().faults().append(Scenarios.read(scenario));
            } catch (ScenarioException e) {
                services.close();
                throw new StartupException("--scenario " + scenario + ": " + e.getMessage());
            }
        }
        if (model != null) {
            ModelRef ref;
            try {
                ref = ModelRef.parse(model);
            } catch (IllegalArgumentException e) {
                services.close();
                throw new StartupException("--model: " + e.getMessage());
            }
            if (services.settings().current().findModel(ref).isEmpty()) {
                services.close();
                throw new StartupException("--model " + model + " is not configured. Configured models: "
                        + services.settings().current().allModels().stream()
                                .map(ModelRef::selector)
                                .toList());
            }
            services.startModel(ref);
        }
        if (pluginsDir != null && !noPlugins && !Files.isDirectory(pluginsDir)) {
            services.close();
            throw new StartupException("--plugins-dir " + pluginsDir + ": no such folder. Give a folder that holds "
                    + "plugin archives (.jar or .zip).");
        }
        services.startPlugins(pluginsDir, noPlugins);
        return services;
    }

    private static void write(OutputStream out, String text) {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            LOG.debug("stdout closed", e);
        }
    }

    private static void await(CompletableFuture<TurnOutcome> completion, CountDownLatch reported) {
        try {
            completion.get(5, TimeUnit.SECONDS);
            reported.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("The turn did not end in time after a signal", e);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            LOG.debug("Already shutting down");
        }
    }

    /** A problem with the command line or configuration that stops Rebound from starting. */
    static final class StartupException extends Exception {
        StartupException(String message) {
            super(message);
        }
    }
}
