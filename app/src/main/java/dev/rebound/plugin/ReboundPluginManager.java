package dev.rebound.plugin;

import dev.rebound.api.PluginContext;
import dev.rebound.api.SessionEventListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.pf4j.DefaultPluginManager;
import org.pf4j.ExtensionFactory;
import org.pf4j.ExtensionWrapper;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginRuntimeException;
import org.pf4j.PluginState;
import org.pf4j.PluginStateEvent;
import org.pf4j.PluginWrapper;
import org.pf4j.RuntimeMode;

/**
 * PF4J's plugin manager as the host uses it: plugins are loaded one path at a time (the host finds the archives and
 * reports each one's fate), extensions are created by {@link ContextExtensionFactory}, {@code Plugin-Requires} is
 * judged by {@link RequiresCheck}, a plugin with unresolvable dependencies is left out instead of failing the others,
 * and the runtime mode is always deployment whatever {@code pf4j.mode} says.
 *
 * <p>PF4J's manager is not thread-safe, and the host runs each step on a thread it may give up on. So every call that
 * reads or changes the manager's lists goes through {@link #locked}, and no plugin code ever runs while the lock is
 * held: the host runs a plugin's constructor, {@code start()}, {@code stop()} and listener constructors itself and
 * records the outcome with {@link #markStarted}/{@link #markStopped} only when it came in time. A step that returns
 * after the host gave up on it therefore cannot change the manager behind the host's back.
 */
final class ReboundPluginManager extends DefaultPluginManager {
    /** Set after PF4J's constructor ran (it calls the factory methods before this class's fields exist). */
    private final RequiresCheck requires;

    private final Function<String, PluginContext> contexts;
    private final ReentrantLock lock = new ReentrantLock();

    ReboundPluginManager(List<Path> roots, RequiresCheck requires, Function<String, PluginContext> contexts) {
        super(roots);
        this.requires = Objects.requireNonNull(requires, "requires");
        this.contexts = Objects.requireNonNull(contexts, "contexts");
        setSystemVersion(requires.systemVersion());
        setResolveRecoveryStrategy(ResolveRecoveryStrategy.IGNORE_PLUGIN_AND_CONTINUE);
    }

    @Override
    protected ExtensionFactory createExtensionFactory() {
        return new ContextExtensionFactory(this::contextOf);
    }

    @Override
    public RuntimeMode getRuntimeMode() {
        return RuntimeMode.DEPLOYMENT;
    }

    @Override
    protected boolean isPluginValid(PluginWrapper plugin) {
        return requires.refusal(plugin.getDescriptor().getRequires()).isEmpty();
    }

    /** Reads and validates the descriptor of a plugin jar or unpacked plugin folder, without loading it. */
    PluginDescriptor describe(Path plugin) {
        PluginDescriptor descriptor = getPluginDescriptorFinder().find(plugin);
        validatePluginDescriptor(descriptor);
        return descriptor;
    }

    /** Loads one plugin (class loader, wrapper) and resolves it with the ones already loaded. */
    PluginWrapper load(Path plugin) {
        PluginWrapper wrapper = loadPluginFromPath(plugin);
        resolvePlugins();
        return wrapper;
    }

    /**
     * Runs a call on the manager alone.
     *
     * @param wait how long to wait for a call still running on another thread
     * @throws PluginRuntimeException when the manager stayed busy that long
     */
    <T> T locked(Duration wait, Supplier<T> call) {
        try {
            if (!lock.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new PluginRuntimeException("the plugin manager stayed busy for " + wait.toMillis() + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PluginRuntimeException("interrupted while waiting for the plugin manager");
        }
        try {
            return call.get();
        } finally {
            lock.unlock();
        }
    }

    /** Records that the host started the plugin itself, as {@code startPlugin} would have. Call under the lock. */
    void markStarted(PluginWrapper plugin) {
        PluginState old = plugin.getPluginState();
        plugin.setPluginState(PluginState.STARTED);
        startedPlugins.add(plugin);
        firePluginStateEvent(new PluginStateEvent(this, plugin, old));
    }

    /** Records that the host stopped the plugin itself, as {@code stopPlugin} would have. Call under the lock. */
    void markStopped(PluginWrapper plugin) {
        PluginState old = plugin.getPluginState();
        plugin.setPluginState(PluginState.STOPPED);
        startedPlugins.remove(plugin);
        firePluginStateEvent(new PluginStateEvent(this, plugin, old));
    }

    /** The listener extensions of a plugin, not yet created (creating one runs plugin code). Call under the lock. */
    List<ExtensionWrapper<SessionEventListener>> listeners(String pluginId) {
        return extensionFinder.find(SessionEventListener.class, pluginId);
    }

    private PluginContext contextOf(Class<?> extensionClass) {
        PluginWrapper owner = whichPlugin(extensionClass);
        return owner == null || contexts == null ? null : contexts.apply(owner.getPluginId());
    }
}
