package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rebound.api.PluginContext;
import dev.rebound.api.SessionEventListener;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pf4j.PluginRuntimeException;

class ContextExtensionFactoryTest {
    private static final PluginContext CONTEXT =
            new HostPluginContext("p", Path.of("data"), Map.of(), Map.of(), "1.0.0");
    private final ContextExtensionFactory factory = new ContextExtensionFactory(type -> CONTEXT);

    public static class WithContext implements SessionEventListener {
        final PluginContext context;

        public WithContext(PluginContext context) {
            this.context = context;
        }

        public WithContext() {
            this.context = null;
        }
    }

    public static class NoArgs implements SessionEventListener {}

    public static class Throws implements SessionEventListener {
        public Throws(PluginContext context) {
            throw new IllegalStateException("no config file in " + context.dataDirectory());
        }
    }

    public static class MissingClass implements SessionEventListener {
        public MissingClass() {
            throw new NoClassDefFoundError("com/example/Gone");
        }
    }

    public static class OnlyPrivate implements SessionEventListener {
        private OnlyPrivate() {}
    }

    @Test
    void aContextConstructorIsPreferredAndGetsThePluginsContext() {
        assertThat(factory.create(WithContext.class).context).isSameAs(CONTEXT);
    }

    @Test
    void withoutAContextConstructorTheNoArgumentOneIsUsed() {
        assertThat(factory.create(NoArgs.class)).isInstanceOf(NoArgs.class);
    }

    @Test
    void whatAConstructorThrowsIsNamedInTheFailure() {
        assertThatThrownBy(() -> factory.create(Throws.class))
                .isInstanceOf(PluginRuntimeException.class)
                .hasMessageContaining("The constructor of " + Throws.class.getName())
                .hasMessageContaining("java.lang.IllegalStateException: no config file in data")
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void aLinkageErrorInAConstructorBecomesAPluginFailure() {
        assertThatThrownBy(() -> factory.create(MissingClass.class))
                .isInstanceOf(PluginRuntimeException.class)
                .hasMessageContaining("java.lang.NoClassDefFoundError: com/example/Gone");
    }

    @Test
    void aClassWithoutAUsableConstructorIsRefusedWithTheReason() {
        assertThatThrownBy(() -> factory.create(OnlyPrivate.class))
                .isInstanceOf(PluginRuntimeException.class)
                .hasMessageContaining("neither a public (PluginContext) nor a public no-argument constructor");
        assertThatThrownBy(() -> factory.create(SessionEventListener.class)).hasMessageContaining("is abstract");
    }

    @Test
    void aContextConstructorOfAClassOfNoPluginIsRefused() {
        ContextExtensionFactory orphan = new ContextExtensionFactory(type -> null);
        assertThatThrownBy(() -> orphan.create(WithContext.class)).hasMessageContaining("belongs to no loaded plugin");
    }
}
