package dev.rebound.app;

import dev.rebound.auth.CredentialPool;
import dev.rebound.auth.CredentialStore;
import dev.rebound.auth.SessionCredentials;
import dev.rebound.event.Notice;
import dev.rebound.expiry.ExpiryStore;
import dev.rebound.expiry.MemoryExpiries;
import dev.rebound.fallback.ChainFallback;
import dev.rebound.fallback.FallbackChains;
import dev.rebound.fallback.ModelCooldowns;
import dev.rebound.files.FileProblem;
import dev.rebound.history.DamageNote;
import dev.rebound.history.JournalCodec;
import dev.rebound.history.LoadedSession;
import dev.rebound.history.SessionCatalogue;
import dev.rebound.history.SessionFiles;
import dev.rebound.history.SessionJournal;
import dev.rebound.history.SessionLoader;
import dev.rebound.json.WireJson;
import dev.rebound.plugin.PluginHost;
import dev.rebound.plugin.PluginReport;
import dev.rebound.provider.ChatProvider;
import dev.rebound.provider.HttpClientSource;
import dev.rebound.provider.SharedHttpClients;
import dev.rebound.provider.SimulatorApiProvider;
import dev.rebound.provider.StreamWatchdog;
import dev.rebound.provider.StreamingProvider;
import dev.rebound.provider.anthropic.AnthropicMessagesWire;
import dev.rebound.provider.gemini.GeminiWire;
import dev.rebound.provider.openai.OpenAiCompletionsProvider;
import dev.rebound.provider.openai.ResponsesWire;
import dev.rebound.retry.CredentialUsageLimits;
import dev.rebound.retry.RetryEngine;
import dev.rebound.retry.RetryTimer;
import dev.rebound.session.ChatSession;
import dev.rebound.session.ChatSessionBuilder;
import dev.rebound.session.IdGenerator;
import dev.rebound.session.JournalHistorySink;
import dev.rebound.session.ProviderDirectory;
import dev.rebound.session.RestoredSession;
import dev.rebound.session.SessionFactory;
import dev.rebound.session.SessionModel;
import dev.rebound.session.SessionRestorer;
import dev.rebound.session.SessionTitler;
import dev.rebound.settings.ConfigDirectory;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.Settings;
import dev.rebound.settings.SettingsStore;
import dev.rebound.simulator.BuiltInSimulator;
import dev.rebound.transcript.ModelRef;
import dev.rebound.ui.DesktopContext;
import dev.rebound.ui.settings.model.SettingsServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The app's shared services, built once per process: config directory, log file, settings, credentials, the HTTP
 * client and the providers. Sessions made by {@link #sessionFactory()} share them.
 */
final class AppServices implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AppServices.class);

    private final ConfigDirectory dir;
    /** This config directory's log file, detached again by {@link #close()}. */
    private final LoggingSetup.LogFile logFile;

    private final SettingsStore settings;
    private final CredentialStore credentials;
    private final CredentialPool credentialPool;
    private final ModelCooldowns cooldowns;
    private final List<FileProblem> stateProblems = new ArrayList<>();
    /**
     * The shared HTTP clients, built in the background from the start; the first call waits for them if need be. TLS
     * is set up only for a configuration that calls a provider over https, in the background too, or else on the
     * first https call ({@link SharedHttpClients}): a local server or the simulator never pays for it.
     */
    private final CompletableFuture<SharedHttpClients> http;
    /** The client for a URL, from {@link #http}. */
    private final HttpClientSource httpSource;

    private final ScheduledExecutorService watchdogScheduler;
    private final ProviderDirectory providers;
    private final Clock clock;
    /** The offline simulator; its server starts on the first call to a simulator provider. */
    private final BuiltInSimulator simulator = new BuiltInSimulator();
    /** Background work that must not hold a session's thread: model-made titles, save-failure notices. */
    private final ExecutorService background =
            Executors.newCachedThreadPool(new NumberedDaemonThreads("rebound-background-"));

    /**
     * The JSON form of messages and events, one for the app: chat files and RPC frames share its serializers, which
     * are built once (see {@link WireJson#prepareWriters}), not once per chat.
     */
    private final WireJson wire = new WireJson();

    private final JournalCodec journalCodec = new JournalCodec(wire);

    private volatile ModelRef startModel;
    /** Plugins get every session's events; none until {@link #startPlugins} ran. */
    private volatile PluginHost plugins = PluginHost.none();
    /** The session made last: where a plugin's failure while running is announced. */
    private final AtomicReference<ChatSession> newestSession = new AtomicReference<>();
    /**
     * Writes credential blocks and model cooldowns to their files after the retry decisions that made them, so no
     * decision (and no reader of the stores) waits for a file lock or an fsync; flushed when the app closes.
     */
    private final ExecutorService expiryWriter = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon(true).name("rebound-expiry-writer").factory());

    private final List<ExpiryStore> expiryStores;
    /** The requests of model roles (titles), retried and falling back like a chat's. */
    private final RoleSessions roleCalls = new RoleSessions(this::roleSession);

    /** The environment, where keys and extra header values named by a variable are read. */
    private final Map<String, String> env;

    private AppServices(ConfigDirectory dir, Map<String, String> env, Clock clock, LoggingSetup.LogFile logFile) {
        this.logFile = logFile;
        // The first chat's first line needs the message serializers: built meanwhile, on the other core.
        background.execute(() -> prepareWriters(false));
        this.env = Map.copyOf(env);
        this.dir = dir;
        this.clock = clock;
        this.settings = SettingsStore.open(dir, clock, BuiltInProvider.config());
        settings.addKeptBrokenListener(this::tellAboutKeptSettings);
        this.credentials = CredentialStore.open(dir, env, clock);
        ExpiryStore blocks = ExpiryStore.open(dir.stateDir().resolve("credential-blocks.json"), clock, expiryWriter);
        ExpiryStore cooling = ExpiryStore.open(dir.stateDir().resolve("model-cooldowns.json"), clock, expiryWriter);
        this.expiryStores = List.of(blocks, cooling);
        stateProblems.addAll(blocks.problems());
        stateProblems.addAll(cooling.problems());
        // The built-in provider's fake keys and model: in effect only while it is, blocked and cooled in memory only.
        MemoryExpiries builtInBlocks = new MemoryExpiries(clock);
        MemoryExpiries builtInCooling = new MemoryExpiries(clock);
        simulator.onClear(builtInBlocks::clear);
        simulator.onClear(builtInCooling::clear);
        List<dev.rebound.auth.Credential> fakeKeys = BuiltInProvider.credentials();
        this.credentialPool = new CredentialPool(
                credentials, blocks, () -> settings.usesBuiltInProvider() ? fakeKeys : List.of(), builtInBlocks);
        this.cooldowns = new ModelCooldowns(
                cooling,
                builtInCooling,
                m -> settings.usesBuiltInProvider() && BuiltInSimulator.PROVIDER_KEY.equals(m.provider()));
        this.http = CompletableFuture.supplyAsync(SharedHttpClients::create, background);
        this.httpSource = url -> http.join().clientFor(url);
        if (callsOverHttps(settings.current())) {
            http.thenAccept(clients -> clients.prepareTls(background));
        }
        this.watchdogScheduler = StreamWatchdog.newScheduler();
        // Settings saved by another Rebound process, or by hand, apply here too (issue 18, defect 3): one stat of
        // settings.json every two seconds, on the watchdog's thread; what needs saying reaches the open chat.
        settings.addExternalChangeListener(this::tellAboutPlugin);
        watchdogScheduler.scheduleWithFixedDelay(
                this::reloadSettings, SETTINGS_WATCH_MS, SETTINGS_WATCH_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        StreamWatchdog watchdog = new StreamWatchdog(watchdogScheduler);
        HttpClientSource shared = httpSource;
        ChatProvider openAi = new OpenAiCompletionsProvider(shared, clock, watchdog, env);
        ChatProvider anthropic = new StreamingProvider(new AnthropicMessagesWire(), shared, clock, watchdog, env);
        ChatProvider responses = new StreamingProvider(new ResponsesWire(), shared, clock, watchdog, env);
        ChatProvider gemini = new StreamingProvider(new GeminiWire(), shared, clock, watchdog, env);
        // The simulator's own client keeps no idle connection: each scripted fault reaches the user as scripted. It is
        // spoken to in whichever format its provider names.
        CompletableFuture<SharedHttpClients> simulatorHttp = http.thenApply(SharedHttpClients::unpooled);
        HttpClientSource unpooled = url -> simulatorHttp.join().clientFor(url);
        ChatProvider simulated = new SimulatorApiProvider(
                Map.of(
                        ProviderApi.OPENAI_COMPLETIONS,
                        new OpenAiCompletionsProvider(unpooled, clock, watchdog, env),
                        ProviderApi.OPENAI_RESPONSES,
                        new StreamingProvider(new ResponsesWire(), unpooled, clock, watchdog, env),
                        ProviderApi.ANTHROPIC_MESSAGES,
                        new StreamingProvider(new AnthropicMessagesWire(), unpooled, clock, watchdog, env),
                        ProviderApi.GOOGLE_GEMINI,
                        new StreamingProvider(new GeminiWire(), unpooled, clock, watchdog, env)),
                simulator::baseUrl,
                clock);
        this.providers = api -> switch (api) {
            case OPENAI_COMPLETIONS -> Optional.of(openAi);
            case OPENAI_RESPONSES -> Optional.of(responses);
            case ANTHROPIC_MESSAGES -> Optional.of(anthropic);
            case GOOGLE_GEMINI -> Optional.of(gemini);
            case SIMULATOR -> Optional.of(simulated);
        };
    }

    /** Whether a configured provider is called over https, so that TLS is worth setting up ahead of the first call. */
    static boolean callsOverHttps(Settings settings) {
        return settings.providers().values().stream()
                .map(dev.rebound.settings.ProviderConfig::baseUrl)
                .anyMatch(url -> url != null && url.strip().regionMatches(true, 0, "https:", 0, 6));
    }

    /**
     * Resolves the config directory, starts logging into it and loads settings and credentials. Content problems
     * never stop the start; they become {@link #startupNotices()}.
     */
    static AppServices start(Path configDirOption, Map<String, String> env) throws Launch.StartupException {
        return start(directory(configDirOption, env), env);
    }

    /** Where the config directory is (from {@code --config-dir}, the environment or the platform's default). */
    static ConfigDirectory directory(Path configDirOption, Map<String, String> env) {
        return ConfigDirectory.resolve(
                configDirOption, env, System.getProperty("os.name", ""), Path.of(System.getProperty("user.home", ".")));
    }

    /** Starts the services in a config directory found by {@link #directory}. */
    static AppServices start(ConfigDirectory dir, Map<String, String> env) throws Launch.StartupException {
        try {
            dir.ensureExists();
            Files.createDirectories(dir.logsDir());
        } catch (IOException e) {
            throw new Launch.StartupException("cannot use the config directory " + dir.root() + " (" + e.getMessage()
                    + "). Choose a writable one with --config-dir DIR.");
        }
        LoggingSetup.LogFile logFile = LoggingSetup.addLogFile(dir.logsDir());
        LOG.info("Rebound {} starting; config directory {} ({})", AppVersion.current(), dir.root(), dir.source());
        try {
            return new AppServices(dir, env, Clock.systemDefaultZone(), logFile);
        } catch (RuntimeException | Error e) {
            logFile.close();
            throw e;
        }
    }

    /** Where the desktop window remembers its theme. */
    static Path desktopPreferences(ConfigDirectory dir) {
        return dir.stateDir().resolve("desktop.json");
    }

    /** The app's JSON form of messages and events, for RPC frames. */
    WireJson wire() {
        return wire;
    }

    /** Builds the events' serializers too, in the background: for RPC mode, whose frames are events. */
    void prepareEventWriters() {
        background.execute(() -> prepareWriters(true));
    }

    private void prepareWriters(boolean events) {
        try {
            wire.prepareWriters(events);
        } catch (RuntimeException e) {
            // The write that needs the serializer meets the same problem and reports it where it matters.
            LOG.debug("JSON serializers not prepared", e);
        }
    }

    SettingsStore settings() {
        return settings;
    }

    ConfigDirectory configDirectory() {
        return dir;
    }

    /** The built-in simulator (its fault script, its rate). */
    BuiltInSimulator simulator() {
        return simulator;
    }

    /**
     * Whether a provider in effect sends its calls to the built-in simulator (the built-in provider, or one with
     * {@code api: simulator} and no {@code baseUrl}), so that a scenario queued on it can run.
     */
    boolean usesBuiltInSimulator() {
        return settings.current().providers().values().stream()
                .anyMatch(p -> p.api() == ProviderApi.SIMULATOR
                        && (p.baseUrl() == null || p.baseUrl().isBlank()));
    }

    /** Makes new sessions start on this model instead of the settings' default. */
    void startModel(ModelRef model) {
        this.startModel = model;
    }

    /**
     * The system property naming the folder of the plugins an installed package ships (its launcher sets it, see
     * docs/packaging.md); unset for {@code java -jar}.
     */
    static final String BUNDLED_PLUGINS_PROPERTY = "rebound.bundledPluginsDir";

    /**
     * Loads the plugins of {@code <config-dir>/plugins/}, of {@code extraDir} and of the package's bundled folder
     * ({@link #BUNDLED_PLUGINS_PROPERTY}); with {@code none} (--no-plugins) loads nothing. Call before making sessions:
     * sessions publish their events to the plugins loaded here.
     */
    void startPlugins(Path extraDir, boolean none) {
        if (none) {
            LOG.info("--no-plugins: no plugin is loaded");
            return;
        }
        String bundled = System.getProperty(BUNDLED_PLUGINS_PROPERTY);
        List<Path> roots = pluginRoots(dir.pluginsDir(), extraDir, bundled);
        LoggingSetup.limitPluginLines();
        PluginHost host = PluginHost.start(
                new PluginHost.Options(
                        roots,
                        dir::pluginDataDir,
                        dir.root().resolve("plugin-cache"),
                        AppVersion.current(),
                        settings.effectiveJson(),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(2),
                        // The package's own plugins are there for the user to switch on, not loaded by every start
                        // (docs/plugins.md, "The plugins that ship with Rebound").
                        bundled == null || bundled.isBlank() ? List.of() : List.of(Path.of(bundled))),
                this::tellAboutPlugin);
        LoggingSetup.identifyPlugins(host::pluginOf);
        plugins = host;
    }

    /**
     * The plugins folders in the order their archives are taken: the user's own first, so that a copy the user put
     * there wins over the package's bundled one of the same id (which is then reported as a duplicate).
     *
     * @param extraDir {@code --plugins-dir}, or null
     * @param bundledDir the {@link #BUNDLED_PLUGINS_PROPERTY} value, or null or blank when not packaged
     */
    static List<Path> pluginRoots(Path userDir, Path extraDir, String bundledDir) {
        List<Path> roots = new ArrayList<>(List.of(userDir));
        if (extraDir != null) {
            roots.add(extraDir);
        }
        if (bundledDir != null && !bundledDir.isBlank()) {
            roots.add(Path.of(bundledDir));
        }
        return roots;
    }

    /**
     * Writes the credential blocks and model cooldowns not yet on disk, on the caller's thread: for a shutdown hook,
     * where the JVM halts without {@link #close()}.
     */
    void flushState() {
        expiryStores.forEach(ExpiryStore::flush);
    }

    /** Every plugin found and its state (RPC {@code get_plugins}); empty with --no-plugins. */
    List<PluginReport> plugins() {
        return plugins.plugins();
    }

    /** A running plugin was disabled or failed: the user sees it in the newest chat, off the plugin's thread. */
    /** How often settings.json is checked for changes made outside this process. */
    static final long SETTINGS_WATCH_MS = 2_000;

    private void reloadSettings() {
        try {
            settings.reloadIfChanged();
        } catch (RuntimeException e) {
            LOG.warn("Checking settings.json for outside changes failed", e);
        }
    }

    /** After a save replaced a settings file Rebound could not read: says where it was kept, in the open chat. */
    private void tellAboutKeptSettings(Path copy) {
        tellAboutPlugin(BuiltInProvider.keptBroken(copy));
    }

    private void tellAboutPlugin(String message) {
        background.execute(() -> {
            ChatSession session = newestSession.get();
            if (session != null) {
                session.announce(Notice.WARNING, message);
            }
        });
    }

    /**
     * What the desktop window needs; {@code resume} is the session to open first, or null for a new chat. The
     * first-run notice is left out: the window's welcome view says the same, with a button.
     */
    DesktopContext desktopContext(Path resume) {
        return new DesktopContext(
                sessionFactory(),
                SessionCatalogue.of(dir, clock, journalCodec),
                settings,
                background,
                clock,
                ZoneId.systemDefault(),
                desktopPreferences(dir),
                resume,
                startupNotices(false),
                settings.file(),
                new SettingsServices(
                        settings,
                        credentials,
                        new HttpConnectionTester(httpSource, credentials, env),
                        new SettingsPlugins(settings, this::plugins),
                        dir.pluginsDir()),
                new SimulatorControl(simulator));
    }

    /** Problems found while loading settings, credentials and plugins, as (level, message) for notices. */
    List<Notice> startupNotices() {
        return startupNotices(true);
    }

    private List<Notice> startupNotices(boolean firstRunNotice) {
        List<Notice> notices = new ArrayList<>();
        List<FileProblem> problems = new ArrayList<>(settings.problems());
        problems.addAll(credentials.problems());
        problems.addAll(stateProblems);
        for (FileProblem p : problems) {
            notices.add(new Notice(p.isError() ? Notice.ERROR : Notice.WARNING, p.describe()));
        }
        java.util.Optional<Path> keptBroken =
                settings.usesBuiltInProvider() ? settings.keptBrokenCopy() : java.util.Optional.empty();
        if (keptBroken.isPresent()) {
            // A configuration that had providers never turns into canned replies without saying so.
            notices.add(new Notice(Notice.WARNING, BuiltInProvider.afterKeptBroken(keptBroken.get())));
        } else if (firstRunNotice && settings.usesBuiltInProvider()) {
            notices.add(new Notice(Notice.INFO, BuiltInProvider.notice(dir.settingsFile())));
        }
        for (String problem : plugins.startupProblems()) {
            notices.add(new Notice(Notice.WARNING, problem));
        }
        return notices;
    }

    /**
     * Makes sessions that share the credential pool and the model cooldowns, each with its own credential choice,
     * models, fallback state, retry chain and session file.
     */
    SessionFactory sessionFactory() {
        return new SessionFactory() {
            @Override
            public Opened create() {
                String id = IdGenerator.uuids().next();
                SessionJournal journal = null;
                List<Notice> notices = new ArrayList<>();
                try {
                    journal = SessionJournal.create(dir.sessionsDir(), id, clock.millis(), null, journalCodec);
                } catch (IOException e) {
                    LOG.error("Could not create the file of session {}", id, e);
                    notices.add(new Notice(
                            Notice.WARNING,
                            "Rebound could not create a file for this chat under "
                                    + dir.sessionsDir() + " (" + e.getMessage()
                                    + "), so it will not be saved. Check that "
                                    + "the folder is writable and has free space."));
                }
                return new Opened(build(id, null, defaultModel(settings.current()), journal), notices);
            }

            @Override
            public Opened reuseEmptyOrCreate(String emptyChatId) {
                try {
                    Optional<SessionJournal.Reopened> empty = SessionFiles.isValidId(emptyChatId)
                            ? SessionJournal.reopenEmpty(
                                    SessionFiles.fileOf(dir.sessionsDir(), emptyChatId), journalCodec)
                            : Optional.empty();
                    if (empty.isPresent()) {
                        String id = empty.get().header().id();
                        LOG.debug("Starting on chat {}, which holds nothing yet", id);
                        return new Opened(
                                build(
                                        id,
                                        null,
                                        defaultModel(settings.current()),
                                        empty.get().journal()),
                                List.of());
                    }
                } catch (IOException e) {
                    LOG.warn("Chat {} could not be checked for reuse; starting a new one", emptyChatId, e);
                }
                return create();
            }

            @Override
            public Opened resume(Path file) throws IOException {
                LoadedSession loaded = new SessionLoader(journalCodec).load(file);
                ModelRef fallbackStart = defaultModel(settings.current());
                RestoredSession restored = SessionRestorer.restore(loaded, settings.current(), fallbackStart);
                List<Notice> notices = new ArrayList<>();
                for (FileProblem p : loaded.problems()) {
                    notices.add(new Notice(p.isError() ? Notice.ERROR : Notice.WARNING, p.describe()));
                }
                ModelRef saved = SessionRestorer.savedPrimary(loaded);
                if (saved != null && !saved.equals(restored.primary())) {
                    notices.add(new Notice(
                            Notice.WARNING,
                            "This chat used " + saved.selector() + ", which is "
                                    + "no longer configured; it continues on "
                                    + (restored.primary() == null
                                            ? "no model"
                                            : restored.primary().selector()) + "."));
                }
                if (restored.interrupted()) {
                    notices.add(new Notice(
                            Notice.WARNING,
                            "Rebound stopped before the last prompt of this chat "
                                    + "was answered; that prompt is kept in the file but not sent again. Send it again if "
                                    + "you still need the answer."));
                }
                SessionJournal journal = null;
                try {
                    journal = SessionJournal.openForAppend(file, journalCodec);
                    if (!loaded.newlyDamagedLines().isEmpty()) {
                        // Said once: later openings skip these lines quietly (issue 18, defect 8).
                        journal.append(new DamageNote(
                                java.util.UUID.randomUUID().toString(), clock.millis(), loaded.newlyDamagedLines()));
                    }
                } catch (IOException e) {
                    LOG.warn("Could not open {} for writing", file, e);
                    notices.add(new Notice(
                            Notice.WARNING,
                            "This chat is open read-only: " + file + " cannot be " + "written (" + e.getMessage()
                                    + "). What you add now will not be saved."));
                }
                return new Opened(build(restored.sessionId(), restored, restored.primary(), journal), notices);
            }
        };
    }

    /**
     * A session's retry engine (§3–§6): its usage-limit path on the shared credential pool, and model fallback along
     * the chain of its role, with the shared cooldowns.
     */
    private RetryEngine engine(SessionModel model, SessionCredentials sessionCredentials, String role) {
        SplittableRandom random = new SplittableRandom();
        return RetryEngine.builder()
                .settings(() -> settings.current().retry())
                .clock(clock)
                .random(random)
                .timer(RetryTimer.realTime())
                .usageLimits(new CredentialUsageLimits(credentialPool, sessionCredentials, clock, random))
                .fallback(new ChainFallback(
                        settings::current,
                        model,
                        cooldowns,
                        clock,
                        random,
                        role,
                        m -> !credentialPool.allBlocked(m.provider())))
                .build();
    }

    /** A one-turn session for a model role's request (a title): no file, no plugins, the role's fallback chain. */
    private ChatSession roleSession(String role, ModelRef model) {
        SessionModel sessionModel = new SessionModel(model);
        SessionCredentials sessionCredentials = new SessionCredentials(credentialPool);
        return ChatSession.builder()
                .sessionId(role + "-" + IdGenerator.uuids().next())
                .settings(settings::current)
                .providers(providers)
                .credentials(sessionCredentials)
                .retryEngine(engine(sessionModel, sessionCredentials, role))
                .clock(clock)
                .sessionModel(sessionModel)
                .build();
    }

    private ChatSession build(String id, RestoredSession restored, ModelRef startModel, SessionJournal journal) {
        SessionModel model = new SessionModel(startModel);
        SessionCredentials sessionCredentials = new SessionCredentials(credentialPool);
        AtomicReference<ChatSession> self = new AtomicReference<>();
        ChatSessionBuilder builder = ChatSession.builder()
                .sessionId(id)
                .settings(settings::current)
                .providers(providers)
                .credentials(sessionCredentials)
                .retryEngine(engine(model, sessionCredentials, FallbackChains.DEFAULT))
                .clock(clock)
                .sessionModel(model);
        if (restored != null) {
            builder.restore(restored);
        }
        if (journal != null) {
            builder.historySink(new JournalHistorySink(
                            journal,
                            problem -> background.execute(() -> self.get().announce(Notice.WARNING, problem))))
                    .sessionFile(journal.file());
        }
        ChatSession session = builder.build();
        self.set(session);
        PluginHost host = plugins;
        session.subscribeScoped(host::publish);
        newestSession.set(session);
        session.subscribe(new SessionTitler(session, settings::current, roleCalls, background));
        return session;
    }

    /** The --model choice, else the settings' model when it is configured, else the first configured model. */
    private ModelRef defaultModel(Settings now) {
        if (startModel != null) {
            return startModel;
        }
        if (now.model() != null && now.findModel(now.model()).isPresent()) {
            return now.model();
        }
        List<ModelRef> all = now.allModels();
        return all.isEmpty() ? null : all.getFirst();
    }

    @Override
    public void close() {
        plugins.close();
        // A model-written title that is on its way is worth a short wait; one still waiting to retry is not.
        roleCalls.stopRetrying();
        background.shutdown();
        try {
            background.awaitTermination(3, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        roleCalls.close();
        expiryWriter.shutdown();
        flushState();
        watchdogScheduler.shutdownNow();
        simulator.close();
        try {
            http.join().close();
        } catch (java.util.concurrent.CompletionException e) {
            LOG.debug("The HTTP client was never built", e);
        }
        // Last: what closing logged is in the file. Later lines of the process (another config directory's services,
        // a test's next case) no longer reach this directory, which its owner may be deleting.
        logFile.close();
    }
}
