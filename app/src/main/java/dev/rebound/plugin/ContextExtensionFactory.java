package dev.rebound.plugin;

import dev.rebound.api.PluginContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.function.Function;
import org.pf4j.ExtensionFactory;
import org.pf4j.PluginRuntimeException;

/**
 * Creates plugin extensions the way {@code SessionEventListener}'s contract promises: through a public constructor
 * taking a {@link PluginContext} when the class has one, else through its public no-argument constructor. A failure
 * becomes a {@link PluginRuntimeException} that names the class and the cause (what the constructor threw, or which
 * class it could not find).
 */
final class ContextExtensionFactory implements ExtensionFactory {
    private final Function<Class<?>, PluginContext> contextOf;

    /** @param contextOf the context of the plugin that owns an extension class */
    ContextExtensionFactory(Function<Class<?>, PluginContext> contextOf) {
        this.contextOf = Objects.requireNonNull(contextOf, "contextOf");
    }

    @Override
    public <T> T create(Class<T> extensionClass) {
        String name = extensionClass.getName();
        if (Modifier.isAbstract(extensionClass.getModifiers())) {
            throw new PluginRuntimeException("Extension " + name + " is abstract and cannot be created");
        }
        try {
            Constructor<T> withContext = publicConstructor(extensionClass, PluginContext.class);
            if (withContext != null) {
                PluginContext context = contextOf.apply(extensionClass);
                if (context == null) {
                    throw new PluginRuntimeException(
                            "Extension " + name + " wants a PluginContext, but it belongs " + "to no loaded plugin");
                }
                return withContext.newInstance(context);
            }
            Constructor<T> noArgs = publicConstructor(extensionClass);
            if (noArgs == null) {
                throw new PluginRuntimeException("Extension " + name + " has neither a public (PluginContext) nor a "
                        + "public no-argument constructor");
            }
            return noArgs.newInstance();
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new PluginRuntimeException(cause, "The constructor of {} threw {}", name, describe(cause));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new PluginRuntimeException(e, "Extension {} could not be created: {}", name, describe(e));
        }
    }

    private static <T> Constructor<T> publicConstructor(Class<T> type, Class<?>... parameters) {
        try {
            Constructor<T> constructor = type.getConstructor(parameters);
            return Modifier.isPublic(type.getModifiers()) ? constructor : accessible(constructor);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** A public constructor of a non-public class (a nested listener, say) still needs to be made accessible. */
    private static <T> Constructor<T> accessible(Constructor<T> constructor) {
        constructor.setAccessible(true);
        return constructor;
    }

    static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank()
                ? t.getClass().getName()
                : t.getClass().getName() + ": " + message;
    }
}
