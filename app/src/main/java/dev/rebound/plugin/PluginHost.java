package dev.rebound.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rebound.api.PluginContext;
import dev.rebound.api.SessionEventListener;
import dev.rebound.event.SessionEvent;
import dev.rebound.session.EventScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.pf4j.ExtensionWrapper;
import org.pf4j.Plugin;
import org.pf4j.PluginDependency;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginRuntimeException;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the PF4J plugins of the plugins folders and delivers session events to them through a
 * {@link PluginEventDispatcher}. Nothing a plugin archive holds can stop the app: each archive is read, loaded,
 * started and has its listeners created in steps that are guarded and time-limited, and whatever goes wrong becomes a
 * {@link PluginReport} with a reason and a startup problem for the user.
 *
 * <p>Archives are the {@code *.jar} and {@code *.zip} files directly in each folder, folders in the order given and
 * files by name. A zip is unpacked into the host's own folder first. A plugin is left unloaded when its descriptor
 * cannot be read ({@link PluginReport.State#INVALID}), when an earlier archive has the same id
 * ({@link PluginReport.State#DUPLICATE}), when {@code settings.json → plugins → <id> → enabled} is false
 * ({@link PluginReport.State#DISABLED}), or when its {@code Plugin-Requires} does not accept this app
 * ({@link PluginReport.State#REFUSED}, see {@link RequiresCheck}).
 */
public final class PluginHost implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginHost.class);

    /**
     * Where plugins come from and what they get.
     *
     * @param roots the plugins folders, in order; a missing one is skipped
     * @param dataDirectories each plugin's data folder by plugin id ({@code <config-dir>/plugin-data/<id>}); throws
     *     {@link IllegalArgumentException} for an id that cannot name a folder
     * @param cacheRoot {@code <config-dir>/plugin-cache}: each process unpacks zip plugins into a folder of its own
     *     there (see {@link PluginCache})
     * @param appVersion the app version plugins see and {@code Plugin-Requires} is checked against
     * @param settings the effective settings document (API keys already removed)
     * @param pluginLimit how long all the steps of one plugin (unpack, read, load, start, create listeners) may take
     * @param totalLimit how long loading all plugins may take; plugins not done by then are {@code failed}
     * @param stopLimit how long a plugin's {@code stop()} may take at shutdown
     * @param optInRoots those of {@code roots} whose plugins load only when settings say {@code enabled: true} (the
     *     package's bundled plugins); the others load unless settings say {@code false}
     */
    public record Options(
            List<Path> roots,
            Function<String, Path> dataDirectories,
            Path cacheRoot,
            String appVersion,
            JsonNode settings,
            Duration pluginLimit,
            Duration totalLimit,
            Duration stopLimit,
            List<Path> optInRoots) {
        public Options {
            roots = List.copyOf(roots);
            optInRoots = optInRoots.stream()
                    .map(root -> root.toAbsolutePath().normalize())
                    .toList();
            Objects.requireNonNull(dataDirectories, "dataDirectories");
            Objects.requireNonNull(cacheRoot, "cacheRoot");
            Objects.requireNonNull(pluginLimit, "pluginLimit");
            Objects.requireNonNull(totalLimit, "totalLimit");
        }
    }

    /** Why a plugin of an opt-in folder is not loaded. */
    public static final String OFF_UNTIL_SWITCHED_ON =
            "ships with Rebound, off until switched on (Settings → Plugins, or plugins.<id>.enabled: true)";

    /** How long a late step's clean-up, or the host outside any step, waits for the plugin manager. */
    private static final Duration LATE_LOCK_WAIT = Duration.ofSeconds(1);

    /** One archive and what became of it; {@code state} is null while the plugin is delivered to. */
    private record Entry(String id, String version, PluginReport.State state, String reason, Path archive) {
        PluginReport report() {
            return new PluginReport(id, version, state, reason, 0, 0, 0, archive.toString());
        }
    }

    private final PluginEventDispatcher dispatcher;
    /**
     * Makes PF4J's manager, on first use: a start that loads no plugin (none found, or only the package's own, off
     * until switched on) never makes one, nor the cache folder below (~5 ms of every such start; docs/startup.md).
     */
    private final Supplier<ReboundPluginManager> newManager;
    /** Made by {@link #manager()}; guarded by {@link #managerLock}. */
    private ReboundPluginManager manager;
    /** Its own lock, not the host's monitor: code inside the manager's lock asks for the manager too. */
    private final Object managerLock = new Object();
    /** Guards the cache fields below; the cache is opened (and stale folders swept) under it. */
    private final Object cacheLock = new Object();

    private final List<Entry> entries = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    /** The plugins started in time, in start order; read and written by the loading thread, then by close(). */
    private final List<PluginWrapper> started = new ArrayList<>();
    /** Each loaded plugin's class loader and its id. */
    private final Map<ClassLoader, String> classLoaders = new ConcurrentHashMap<>();
    /** Plugins whose start() returned after the host gave up on them, by id. */
    private final Map<String, Plugin> lateStarts = new ConcurrentHashMap<>();
    /** Where {@link #cache()} makes this process's folder for unpacked zips. */
    private final Path cacheRoot;
    /** This process's folder for unpacked zips, once {@link #cache()} made it; null before, or when it could not. */
    private PluginCache cache;
    /** Why {@link #cache()} gave null. */
    private String cacheProblem;

    private boolean cacheTried;
    /** Every archive found, in the order found: the order of {@link #plugins()}. */
    private final List<Path> found = new ArrayList<>();
    /** The context of each plugin being started, read by the extension factory. */
    private final Map<String, PluginContext> contexts;

    private final TimeLimit stopLimit;

    private PluginHost(
            PluginEventDispatcher dispatcher,
            Supplier<ReboundPluginManager> newManager,
            Map<String, PluginContext> contexts,
            Duration stopLimit,
            Path cacheRoot) {
        this.dispatcher = dispatcher;
        this.newManager = newManager;
        this.contexts = contexts;
        this.stopLimit = new TimeLimit(stopLimit);
        this.cacheRoot = cacheRoot;
    }

    /** A host with no plugins ({@code --no-plugins}). */
    public static PluginHost none() {
        return new PluginHost(null, null, Map.of(), Duration.ZERO, null);
    }

    /** PF4J's manager, made on the first call. */
    private ReboundPluginManager manager() {
        synchronized (managerLock) {
            if (manager == null) {
                manager = newManager.get();
            }
            return manager;
        }
    }

    /** This process's folder for unpacked zips, made on the first call; null when it could not be made. */
    private PluginCache cache() {
        synchronized (cacheLock) {
            if (!cacheTried) {
                cacheTried = true;
                try {
                    cache = PluginCache.open(cacheRoot, ProcessHandle.current(), new SecureRandom());
                } catch (IOException e) {
                    LOG.warn("Could not create a plugin cache folder under {}", cacheRoot, e);
                    cacheProblem =
                            "Rebound could not create its folder under " + cacheRoot + " (" + e.getMessage() + ")";
                }
            }
            return cache;
        }
    }

    private String cacheProblem() {
        synchronized (cacheLock) {
            return cacheProblem;
        }
    }

    /**
     * Loads and starts every plugin of the folders. Never throws for anything a plugin archive holds.
     *
     * @param userNotifier told, with a sentence for the user, when a running plugin is disabled or fails
     */
    public static PluginHost start(Options options, Consumer<String> userNotifier) {
        RequiresCheck requires = new RequiresCheck(options.appVersion());
        Map<String, PluginContext> contexts = new ConcurrentHashMap<>();
        PluginHost host = new PluginHost(
                new PluginEventDispatcher(userNotifier),
                () -> new ReboundPluginManager(options.roots(), requires, contexts::get),
                contexts,
                options.stopLimit(),
                options.cacheRoot());
        new Loader(host, options, requires).run();
        return host;
    }

    /**
     * Queues an event of a session for every active plugin, in its published form ({@link PublishedEvents}); never
     * blocks, never throws. Nothing is mapped while no plugin listens.
     */
    public void publish(SessionEvent event, EventScope scope) {
        if (dispatcher == null || event == null || scope == null || !dispatcher.hasListeners()) {
            return;
        }
        dev.rebound.api.SessionEvent published;
        try {
            published = PublishedEvents.of(event, scope);
        } catch (RuntimeException e) {
            LOG.error("The {} event could not be put in its published form; plugins do not see it", event.type(), e);
            return;
        }
        dispatcher.publish(published);
    }

    /** The id of the loaded plugin whose class loader this is, if any (for attributing log lines). */
    public Optional<String> pluginOf(ClassLoader loader) {
        return loader == null ? Optional.empty() : Optional.ofNullable(classLoaders.get(loader));
    }

    /** Every plugin archive found and what became of it, in the order they were found. */
    public List<PluginReport> plugins() {
        if (dispatcher == null) {
            return List.of();
        }
        Map<String, PluginEventDispatcher.PluginStatus> live = new HashMap<>();
        for (PluginEventDispatcher.PluginStatus status : dispatcher.statuses()) {
            live.put(status.id(), status);
        }
        List<PluginReport> reports = new ArrayList<>(entries.size());
        synchronized (entries) {
            List<Entry> inOrder = new ArrayList<>(entries);
            inOrder.sort(Comparator.comparingInt(e -> found.indexOf(e.archive())));
            for (Entry entry : inOrder) {
                PluginEventDispatcher.PluginStatus status = entry.state() == null ? live.get(entry.id()) : null;
                reports.add(
                        status == null
                                ? entry.report()
                                : new PluginReport(
                                        entry.id(),
                                        entry.version(),
                                        reportState(status.state()),
                                        status.failure(),
                                        status.delivered(),
                                        status.dropped(),
                                        status.failures(),
                                        entry.archive().toString()));
            }
        }
        return List.copyOf(reports);
    }

    /** Sentences for the user about plugins that were not loaded, refused or failed while starting. */
    public List<String> startupProblems() {
        synchronized (entries) {
            return List.copyOf(problems);
        }
    }

    /**
     * Stops delivering events, closes listeners that are {@link AutoCloseable} (bounded wait), then stops the PF4J
     * plugins, each within the stop limit.
     */
    @Override
    public void close() {
        if (dispatcher == null) {
            return;
        }
        dispatcher.close();
        for (PluginWrapper wrapper : started.reversed()) {
            if (stop(wrapper.getPluginId(), wrapper.getPlugin())) {
                try {
                    ReboundPluginManager plugins = manager();
                    plugins.locked(LATE_LOCK_WAIT, () -> {
                        plugins.markStopped(wrapper);
                        return null;
                    });
                } catch (RuntimeException e) {
                    LOG.warn("Could not record that plugin {} stopped", wrapper.getPluginId(), e);
                }
            }
        }
        lateStarts.forEach((id, plugin) -> stop(id, plugin));
        PluginCache made;
        synchronized (cacheLock) {
            made = cache;
        }
        if (made != null) {
            made.close();
        }
    }

    /** Calls a plugin's {@code stop()} within the stop limit; whether it returned in time without throwing. */
    private boolean stop(String id, Plugin plugin) {
        TimeLimit.Outcome<Boolean> stopped = stopLimit.run("stop()", () -> {
            plugin.stop();
            return true;
        });
        if (stopped instanceof TimeLimit.Outcome.Failed<Boolean> failed) {
            LOG.warn("Plugin {} did not stop cleanly: {}", id, failed.reason(), failed.cause());
            return false;
        }
        return true;
    }

    /**
     * A plugin's {@code start()} returned after the host gave up on it: it stays {@code failed} and receives nothing,
     * but it may hold resources, so its {@code stop()} is called when the app exits.
     */
    private void startedLate(String id, Plugin plugin) {
        LOG.warn(
                "Plugin {} returned from start() after Rebound gave up on it; it stays failed, and its stop() is "
                        + "called when the app exits",
                id);
        lateStarts.put(id, plugin);
    }

    private void addProblem(String problem) {
        synchronized (entries) {
            problems.add(problem);
        }
    }

    private void add(Entry entry, String problem) {
        synchronized (entries) {
            entries.add(entry);
            if (problem != null) {
                problems.add(problem);
            }
        }
    }

    /** The loading of one host: finds archives, reads, loads, starts and registers each plugin. */
    private static final class Loader {
        private final PluginHost host;
        private final Options options;
        private final RequiresCheck requires;
        private final TimeLimit limit;
        private final LoadBudget budget;
        private final Map<String, Path> seen = new HashMap<>();
        private final Map<String, Entry> loaded = new LinkedHashMap<>();
        private int unpacked;

        Loader(PluginHost host, Options options, RequiresCheck requires) {
            this.host = host;
            this.options = options;
            this.requires = requires;
            this.limit = new TimeLimit(options.pluginLimit());
            this.budget = new LoadBudget(options.pluginLimit(), options.totalLimit(), System::nanoTime);
        }

        void run() {
            List<Path> archives = archives();
            synchronized (host.entries) {
                host.found.addAll(archives);
            }
            for (Path archive : archives) {
                Optional<String> tooLong = budget.exhausted(archive);
                if (tooLong.isPresent()) {
                    fail(new Entry(archive.getFileName().toString(), null, null, null, archive), tooLong.get(), null);
                } else {
                    consider(archive);
                }
            }
            for (Entry entry : inStartOrder()) {
                Optional<String> tooLong = budget.exhausted(entry.archive());
                if (tooLong.isPresent()) {
                    fail(entry, tooLong.get(), null);
                } else {
                    startAndRegister(entry);
                }
            }
            LOG.info(
                    "Plugins: {}",
                    host.plugins().stream()
                            .map(p -> p.id() + "=" + p.state().wireName())
                            .toList());
        }

        /**
         * Runs one step of a plugin within what is left of its time and everyone's, charging the time to it; what
         * the step returns after the host gave up on it goes to {@code late}.
         */
        private <T> TimeLimit.Outcome<T> step(Path archive, String what, Callable<T> call, Consumer<? super T> late) {
            Optional<String> tooLong = budget.exhausted(archive);
            if (tooLong.isPresent()) {
                return new TimeLimit.Outcome.Failed<>(tooLong.get(), null);
            }
            Duration within = budget.remaining(archive);
            return budget.charge(archive, () -> limit.run(what, within, call, late));
        }

        /**
         * A call on the manager, waiting for it no longer than the plugin's next step may take. The wait is read
         * here, on the loading thread: the budget is the loading thread's alone.
         */
        private <T> Callable<T> managed(Path archive, Supplier<T> call) {
            Duration wait = budget.remaining(archive);
            return () -> host.manager().locked(wait, call);
        }

        /** {@link #managed} called at once, on the loading thread. */
        private <T> T managedNow(Path archive, Supplier<T> call) {
            return host.manager().locked(budget.remaining(archive), call);
        }

        private List<Path> archives() {
            Set<Path> roots = new LinkedHashSet<>();
            options.roots().forEach(r -> roots.add(r.toAbsolutePath().normalize()));
            List<Path> found = new ArrayList<>();
            for (Path root : roots) {
                if (!Files.isDirectory(root)) {
                    LOG.info("No plugins folder at {}", root);
                    continue;
                }
                try (Stream<Path> files = Files.list(root)) {
                    files.filter(PluginHost::isArchive).sorted().forEach(found::add);
                } catch (IOException e) {
                    LOG.warn("Could not list the plugins folder {}", root, e);
                    host.addProblem("Rebound could not read the plugins folder " + root + " (" + e.getMessage()
                            + "); its plugins were not loaded.");
                }
            }
            return found;
        }

        private void consider(Path archive) {
            if (leftOff(archive)) {
                return;
            }
            String file = archive.getFileName().toString();
            Path loadable = archive;
            if (file.toLowerCase(Locale.ROOT).endsWith(".zip")) {
                PluginCache cache = host.cache();
                if (cache == null) {
                    invalid(archive, "the zip could not be unpacked: " + host.cacheProblem(), null);
                    return;
                }
                Path target = cache.folder().resolve((unpacked++) + "-" + file.substring(0, file.length() - 4));
                TimeLimit.Outcome<Path> unpack =
                        step(archive, "unpacking", () -> ArchiveUnpacker.unpack(archive, target), ignored -> {});
                if (unpack instanceof TimeLimit.Outcome.Failed<Path> failed) {
                    invalid(archive, "the zip could not be unpacked: " + failed.reason(), failed.cause());
                    return;
                }
                loadable = target;
            }
            Path source = loadable;
            // Made here, outside the step: making it is the host's time, not this plugin's.
            ReboundPluginManager manager = host.manager();
            TimeLimit.Outcome<PluginDescriptor> read = step(
                    archive, "reading the descriptor", managed(archive, () -> manager.describe(source)), ignored -> {});
            if (read instanceof TimeLimit.Outcome.Failed<PluginDescriptor> failed) {
                invalid(
                        archive,
                        "no readable plugin descriptor: " + failed.reason() + ". A plugin is a jar with "
                                + "Plugin-Id and Plugin-Version in its MANIFEST, or a zip with plugin.properties",
                        failed.cause());
                return;
            }
            PluginDescriptor descriptor = ((TimeLimit.Outcome.Done<PluginDescriptor>) read).value();
            String id = descriptor.getPluginId();
            String version = descriptor.getVersion();
            Path first = seen.putIfAbsent(id, archive);
            if (first != null) {
                String reason = "another archive with the id " + id + ", " + first + ", was found first; this one ("
                        + archive + ") is ignored. Remove one of them";
                LOG.warn("Plugin {}: {}", id, reason);
                host.add(
                        new Entry(id, version, PluginReport.State.DUPLICATE, reason, archive),
                        "Plugin " + id + ": " + reason + ".");
                return;
            }
            if (SettingsView.disabled(options.settings(), id)) {
                LOG.info("Plugin {} ({}) is disabled in settings", id, archive);
                host.add(new Entry(id, version, PluginReport.State.DISABLED, "disabled in settings", archive), null);
                return;
            }
            Optional<String> refusal = requires.refusal(descriptor.getRequires());
            if (refusal.isPresent()) {
                LOG.warn("Plugin {} {} ({}) refused: {}", id, version, archive, refusal.get());
                host.add(
                        new Entry(id, version, PluginReport.State.REFUSED, refusal.get(), archive),
                        "Plugin " + id + " " + version + " was not loaded: " + refusal.get() + ".");
                return;
            }
            TimeLimit.Outcome<PluginWrapper> load =
                    step(archive, "loading", managed(archive, () -> manager.load(source)), this::unloadLate);
            if (load instanceof TimeLimit.Outcome.Failed<PluginWrapper> failed) {
                fail(
                        new Entry(id, version, null, null, archive),
                        "it could not be loaded: " + failed.reason(),
                        failed.cause());
                return;
            }
            loaded.put(id, new Entry(id, version, null, null, archive));
            host.classLoaders.put(
                    ((TimeLimit.Outcome.Done<PluginWrapper>) load).value().getPluginClassLoader(), id);
        }

        /**
         * Whether an archive of an opt-in folder is left off, as it is until settings switch it on: then it is
         * reported {@code disabled} from its descriptor alone, without unpacking or loading anything. An archive whose
         * descriptor cannot be read this way goes the usual way, which reports what is wrong with it.
         */
        private boolean leftOff(Path archive) {
            Path folder = archive.toAbsolutePath().normalize().getParent();
            if (!options.optInRoots().contains(folder)) {
                return false;
            }
            Optional<ArchiveDescriptor> peeked = ArchiveDescriptor.peek(archive);
            if (peeked.isEmpty()
                    || seen.containsKey(peeked.get().id())
                    || SettingsView.switchedOn(options.settings(), peeked.get().id())) {
                return false;
            }
            ArchiveDescriptor descriptor = peeked.get();
            seen.put(descriptor.id(), archive);
            LOG.info("Plugin {} ({}) ships with Rebound and is off until switched on", descriptor.id(), archive);
            host.add(
                    new Entry(
                            descriptor.id(),
                            descriptor.version(),
                            PluginReport.State.DISABLED,
                            OFF_UNTIL_SWITCHED_ON,
                            archive),
                    null);
            return true;
        }

        /** A plugin whose loading finished after the host gave up on it is taken out of the manager again. */
        private void unloadLate(PluginWrapper wrapper) {
            try {
                ReboundPluginManager manager = host.manager();
                manager.locked(LATE_LOCK_WAIT, () -> manager.unloadPlugin(wrapper.getPluginId()));
                LOG.warn("Plugin {} was loaded after Rebound gave up on it; it was unloaded", wrapper.getPluginId());
            } catch (RuntimeException e) {
                LOG.warn(
                        "Plugin {} was loaded after Rebound gave up on it and could not be unloaded",
                        wrapper.getPluginId(),
                        e);
            }
        }

        /** The loaded plugins, dependencies first (PF4J's resolved order). */
        private List<Entry> inStartOrder() {
            List<Entry> ordered = new ArrayList<>();
            if (loaded.isEmpty()) {
                return ordered;
            }
            try {
                ReboundPluginManager manager = host.manager();
                for (PluginWrapper wrapper :
                        manager.locked(LATE_LOCK_WAIT, () -> List.copyOf(manager.getResolvedPlugins()))) {
                    Entry entry = loaded.remove(wrapper.getPluginId());
                    if (entry != null) {
                        ordered.add(entry);
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("Could not read the order of the plugins' dependencies", e);
            }
            ordered.addAll(loaded.values()); // not resolved: reported as such by startAndRegister
            loaded.clear();
            return ordered;
        }

        private void startAndRegister(Entry entry) {
            String id = entry.id();
            Path archive = entry.archive();
            ReboundPluginManager manager = host.manager();
            PluginWrapper wrapper;
            try {
                wrapper = managedNow(archive, () -> {
                    PluginWrapper found = manager.getPlugin(id);
                    return found != null && manager.getResolvedPlugins().contains(found) ? found : null;
                });
            } catch (RuntimeException e) {
                fail(entry, "it could not be looked up: " + ContextExtensionFactory.describe(e), e);
                return;
            }
            if (wrapper == null) {
                fail(entry, "its Plugin-Dependencies could not be resolved (see the log)", null);
                return;
            }
            Optional<String> missing = wrapper.getDescriptor().getDependencies().stream()
                    .filter(d -> !d.isOptional())
                    .map(PluginDependency::getPluginId)
                    .filter(d ->
                            host.started.stream().noneMatch(s -> s.getPluginId().equals(d)))
                    .findFirst();
            if (missing.isPresent()) {
                fail(entry, "the plugin it depends on, " + missing.get() + ", was not started", null);
                return;
            }
            try {
                host.contexts.put(id, context(id));
            } catch (IOException | IllegalArgumentException e) {
                fail(entry, "its data folder could not be created (" + e.getMessage() + ")", e);
                return;
            }
            TimeLimit.Outcome<Plugin> start = step(
                    archive,
                    "start()",
                    () -> {
                        Plugin plugin = wrapper.getPlugin();
                        if (plugin == null) {
                            throw new PluginRuntimeException("its Plugin-Class "
                                    + wrapper.getDescriptor().getPluginClass()
                                    + " could not be loaded or created (see the log)");
                        }
                        plugin.start();
                        return plugin;
                    },
                    plugin -> host.startedLate(id, plugin));
            if (start instanceof TimeLimit.Outcome.Failed<Plugin> failed) {
                markFailed(archive, wrapper, failed.cause());
                fail(entry, "it failed to start: " + failed.reason(), failed.cause());
                return;
            }
            try {
                managedNow(archive, () -> {
                    manager.markStarted(wrapper);
                    return null;
                });
            } catch (RuntimeException e) {
                fail(entry, "it failed to start: " + ContextExtensionFactory.describe(e), e);
                return;
            }
            host.started.add(wrapper);
            Callable<List<ExtensionWrapper<SessionEventListener>>> extensions =
                    managed(archive, () -> manager.listeners(id));
            TimeLimit.Outcome<List<SessionEventListener>> created = step(
                    archive,
                    "creating its listeners",
                    () -> {
                        List<SessionEventListener> listeners = new ArrayList<>();
                        for (ExtensionWrapper<SessionEventListener> extension : extensions.call()) {
                            listeners.add(extension.getExtension());
                        }
                        return listeners;
                    },
                    listeners -> closeLate(id, listeners));
            if (created instanceof TimeLimit.Outcome.Failed<List<SessionEventListener>> failed) {
                fail(entry, "its listener could not be created: " + failed.reason(), failed.cause());
                return;
            }
            List<SessionEventListener> listeners =
                    ((TimeLimit.Outcome.Done<List<SessionEventListener>>) created).value();
            if (listeners.isEmpty()) {
                fail(
                        entry,
                        "it has no SessionEventListener that Rebound could load; check that the archive has "
                                + "META-INF/extensions.idx (written by PF4J's annotation processor) naming classes it "
                                + "holds, and see the log",
                        null);
                return;
            }
            host.dispatcher.register(
                    id, entry.version(), listeners.size() == 1 ? listeners.getFirst() : new ListenerGroup(listeners));
            LOG.info(
                    "Plugin {} {} ({}) is active with {} listener(s)",
                    id,
                    entry.version(),
                    entry.archive(),
                    listeners.size());
            host.add(entry, null);
        }

        /** Tells PF4J the plugin failed, so that its state agrees with the host's. */
        private void markFailed(Path archive, PluginWrapper wrapper, Throwable cause) {
            try {
                managedNow(archive, () -> {
                    wrapper.setPluginState(PluginState.FAILED);
                    wrapper.setFailedException(cause);
                    return null;
                });
            } catch (RuntimeException e) {
                LOG.warn("Could not mark plugin {} as failed in PF4J", wrapper.getPluginId(), e);
            }
        }

        /** Listeners created after the host gave up on them are never delivered to: close those that can be. */
        private static void closeLate(String id, List<SessionEventListener> listeners) {
            LOG.warn("The listeners of plugin {} were created after Rebound gave up on them; they are not used", id);
            for (SessionEventListener listener : listeners) {
                if (listener instanceof AutoCloseable closeable) {
                    try {
                        closeable.close();
                    } catch (Exception e) {
                        LOG.warn("Plugin {} failed while closing an unused listener", id, e);
                    }
                }
            }
        }

        private PluginContext context(String id) throws IOException {
            Path data = options.dataDirectories().apply(id);
            Files.createDirectories(data);
            // What plugins keep (a journal of error texts, say) is the owner's only, like the rest of the config
            // directory: the data folder and the folder holding all of them are made owner-only.
            ownerOnly(data.getParent());
            ownerOnly(data);
            return new HostPluginContext(
                    id,
                    data,
                    SettingsView.withoutSecrets(options.settings(), id),
                    SettingsView.pluginSection(options.settings(), id),
                    options.appVersion());
        }

        private static void ownerOnly(Path dir) {
            if (dir == null
                    || !dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return;
            }
            try {
                Files.setPosixFilePermissions(
                        dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            } catch (IOException | RuntimeException e) {
                LOG.warn("Could not make {} owner-only: {}", dir, e.toString());
            }
        }

        private void invalid(Path archive, String reason, Throwable cause) {
            LOG.warn("Skipped the plugin archive {}: {}", archive, reason);
            LOG.info("Why {} was skipped", archive, cause);
            host.add(
                    new Entry(archive.getFileName().toString(), null, PluginReport.State.INVALID, reason, archive),
                    "The plugin archive " + archive + " was skipped: " + reason + ".");
        }

        private void fail(Entry entry, String reason, Throwable cause) {
            LOG.warn("Plugin {} {} ({}) failed: {}", entry.id(), entry.version(), entry.archive(), reason);
            LOG.info("Why plugin {} failed", entry.id(), cause);
            host.add(
                    new Entry(entry.id(), entry.version(), PluginReport.State.FAILED, reason, entry.archive()),
                    "Plugin " + entry.id() + " " + (entry.version() == null ? "" : entry.version() + " ")
                            + "was not started: " + reason + ".");
        }
    }

    /** The report state of a plugin being delivered to; spelled out so that renaming either enum cannot break it. */
    static PluginReport.State reportState(PluginEventDispatcher.State state) {
        return switch (state) {
            case ACTIVE -> PluginReport.State.ACTIVE;
            case DISABLED -> PluginReport.State.DISABLED;
            case FAILED -> PluginReport.State.FAILED;
            case STUCK -> PluginReport.State.STUCK;
        };
    }

    private static boolean isArchive(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return !name.startsWith(".") && (name.endsWith(".jar") || name.endsWith(".zip")) && Files.isRegularFile(file);
    }
}
