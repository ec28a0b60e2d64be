package dev.rebound.plugintest;

import dev.rebound.api.PluginContext;
import dev.rebound.api.SessionEventListener;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pf4j.DefaultPluginManager;
import org.pf4j.PluginManager;
import org.pf4j.PluginState;
import org.pf4j.PluginWrapper;

/**
 * A built plugin archive loaded by a plain PF4J {@link DefaultPluginManager}, as the host loads it: the archive is
 * copied into a plugins folder, unpacked by PF4J, checked against the app version and started. Listeners are made
 * the way the host makes them (a {@code (PluginContext)} constructor if there is one, else the no-argument one) and
 * closed, when {@link AutoCloseable}, by {@link #close()}.
 */
public final class LoadedPlugin implements AutoCloseable {

    private final PluginManager manager;
    private final PluginWrapper wrapper;
    private final Path dataDirectory;
    private final List<SessionEventListener> listeners = new ArrayList<>();

    private LoadedPlugin(PluginManager manager, PluginWrapper wrapper, Path dataDirectory) {
        this.manager = manager;
        this.wrapper = wrapper;
        this.dataDirectory = dataDirectory;
    }

    /**
     * Loads and starts the archive, and creates its data directory {@code plugin-data/<plugin id>} beside the
     * plugins folder, as the host does.
     *
     * @param archive the built zip or jar
     * @param appVersion the version {@code Plugin-Requires} is checked against
     * @param workDirectory an empty directory for the plugins folder
     * @throws IllegalStateException when PF4J did not load and start exactly this one plugin, with its state and cause
     */
    public static LoadedPlugin load(Path archive, String appVersion, Path workDirectory) throws IOException {
        Path pluginsRoot = Files.createDirectories(workDirectory.resolve("plugins"));
        Files.copy(archive, pluginsRoot.resolve(archive.getFileName()));
        DefaultPluginManager manager = new DefaultPluginManager(pluginsRoot);
        manager.setSystemVersion(appVersion);
        manager.loadPlugins();
        manager.startPlugins();
        List<PluginWrapper> plugins = manager.getPlugins();
        if (plugins.size() != 1 || plugins.getFirst().getPluginState() != PluginState.STARTED) {
            String states = plugins.stream()
                    .map(p -> p.getPluginId() + " " + p.getPluginState()
                            + (p.getFailedException() == null ? "" : " (" + p.getFailedException() + ")"))
                    .toList()
                    .toString();
            manager.unloadPlugins();
            throw new IllegalStateException("PF4J did not start exactly one plugin from " + archive + ": " + states);
        }
        PluginWrapper plugin = plugins.getFirst();
        Path dataDirectory =
                Files.createDirectories(workDirectory.resolve("plugin-data").resolve(plugin.getPluginId()));
        return new LoadedPlugin(manager, plugin, dataDirectory);
    }

    /**
     * The archive this module's build made: the {@code plugin.archive} system property, which the plugins' parent
     * pom sets for failsafe.
     */
    public static Path builtArchive() {
        String archive = System.getProperty("plugin.archive");
        if (archive == null) {
            throw new IllegalStateException("plugin.archive is not set: run this test with failsafe, after package");
        }
        return Path.of(archive);
    }

    /**
     * Which of the named classes the plugin's class loader does not define itself (from the archive's jars), so a
     * test proves the archive bundles what the plugin needs rather than borrowing it from the test class path.
     */
    public List<String> classesNotFromArchive(String... classNames) throws ClassNotFoundException {
        ClassLoader pluginLoader = wrapper.getPluginClassLoader();
        List<String> borrowed = new ArrayList<>();
        for (String name : classNames) {
            if (pluginLoader.loadClass(name).getClassLoader() != pluginLoader) {
                borrowed.add(name);
            }
        }
        return borrowed;
    }

    /** The loaded plugin, with its descriptor and class loader. */
    public PluginWrapper wrapper() {
        return wrapper;
    }

    /** The {@link SessionEventListener} extension classes PF4J found in the plugin. */
    public List<Class<? extends SessionEventListener>> listenerClasses() {
        return manager.getExtensionClasses(SessionEventListener.class, wrapper.getPluginId());
    }

    /** The plugin's data directory, given to its listeners in their context. */
    public Path dataDirectory() {
        return dataDirectory;
    }

    /**
     * Makes the plugin's one listener as the host does, with a context on {@link #dataDirectory()}.
     *
     * @param pluginSettings the plugin's settings section
     * @throws IllegalStateException when the plugin has no listener or several
     */
    public SessionEventListener newListener(Map<String, Object> pluginSettings) {
        PluginContext context = TestPluginContext.of(wrapper.getPluginId(), dataDirectory, pluginSettings);
        List<Class<? extends SessionEventListener>> classes = listenerClasses();
        if (classes.size() != 1) {
            throw new IllegalStateException("expected one SessionEventListener extension in " + wrapper.getPluginId()
                    + ", found " + classes + " (none: is PF4J's annotation processor configured and are plugin-api"
                    + " and pf4j provided?)");
        }
        SessionEventListener listener = instantiate(classes.getFirst(), context);
        listeners.add(listener);
        return listener;
    }

    private static SessionEventListener instantiate(Class<? extends SessionEventListener> type, PluginContext context) {
        try {
            Constructor<? extends SessionEventListener> withContext = findContextConstructor(type);
            return withContext != null
                    ? withContext.newInstance(context)
                    : type.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the constructor of " + type.getName() + " threw", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    type.getName() + " has no public (PluginContext) or no-argument" + " constructor", e);
        }
    }

    private static Constructor<? extends SessionEventListener> findContextConstructor(
            Class<? extends SessionEventListener> type) {
        try {
            return type.getConstructor(PluginContext.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Closes the listeners made here that are {@link AutoCloseable}, then stops and unloads the plugin. */
    @Override
    public void close() throws Exception {
        try {
            for (SessionEventListener listener : listeners) {
                if (listener instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            }
        } finally {
            manager.stopPlugins();
            manager.unloadPlugins();
        }
    }
}
