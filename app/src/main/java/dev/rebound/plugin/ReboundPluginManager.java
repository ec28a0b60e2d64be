package dev.rebound.plugin;

import dev.rebound.api.PluginContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.pf4j.DefaultPluginManager;
import org.pf4j.ExtensionFactory;
import org.pf4j.PluginDescriptor;
import org.pf4j.PluginWrapper;
import org.pf4j.RuntimeMode;

/**
 * PF4J's plugin manager as the host uses it: plugins are loaded one path at a time (the host finds the archives and
 * reports each one's fate), extensions are created by {@link ContextExtensionFactory}, {@code Plugin-Requires} is
 * judged by {@link RequiresCheck}, a plugin with unresolvable dependencies is left out instead of failing the others,
 * and the runtime mode is always deployment whatever {@code pf4j.mode} says.
 */
final class ReboundPluginManager extends DefaultPluginManager {
    /** Set after PF4J's constructor ran (it calls the factory methods before this class's fields exist). */
    private final RequiresCheck requires;
    private final Function<String, PluginContext> contexts;

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

    private PluginContext contextOf(Class<?> extensionClass) {
        PluginWrapper owner = whichPlugin(extensionClass);
        return owner == null || contexts == null ? null : contexts.apply(owner.getPluginId());
    }
}
