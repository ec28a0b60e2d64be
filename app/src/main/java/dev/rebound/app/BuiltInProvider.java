package dev.rebound.app;

import dev.rebound.auth.Credential;
import dev.rebound.auth.Secret;
import dev.rebound.settings.ModelConfig;
import dev.rebound.settings.ProviderApi;
import dev.rebound.settings.ProviderConfig;
import dev.rebound.simulator.BuiltInSimulator;
import dev.rebound.simulator.SimulatorServer;
import java.nio.file.Path;
import java.util.List;

/**
 * The provider Rebound uses when settings.json configures none: the built-in simulator ({@code simulator/
 * rebound-simulator}, shown as {@value BuiltInSimulator#DISPLAY_NAME}), with two fake credentials. Never written to
 * settings.json or credentials.json.
 */
final class BuiltInProvider {
    /** The context window the simulator's model claims. */
    static final int CONTEXT_WINDOW = 128_000;

    private BuiltInProvider() {}

    /** Its configuration: no baseUrl, so calls go to the built-in server. */
    static ProviderConfig config() {
        return new ProviderConfig(
                BuiltInSimulator.PROVIDER_KEY,
                ProviderApi.SIMULATOR,
                null,
                List.of(new ModelConfig(SimulatorServer.MODEL_ID, CONTEXT_WINDOW, BuiltInSimulator.DISPLAY_NAME)));
    }

    /** Its fake credentials, first one first. */
    static List<Credential> credentials() {
        return BuiltInSimulator.CREDENTIALS.stream()
                .map(c -> new Credential(BuiltInSimulator.PROVIDER_KEY, c.label(), new Secret(c.key())))
                .toList();
    }

    /** Said when a save replaced a settings file Rebound could not read. */
    static String keptBroken(Path copy) {
        return "settings.json could not be read, so this change was saved in a new settings.json. The old file is "
                + "kept as " + copy + ": copy your providers and other settings back from it (fix what made it "
                + "unreadable first).";
    }

    /** The start-up warning when no provider is configured but an unreadable settings file was kept. */
    static String afterKeptBroken(Path copy) {
        return "settings.json configures no provider, so replies come from the built-in simulator, "
                + BuiltInSimulator.DISPLAY_NAME + " (canned answers, not a real model). An earlier settings.json "
                + "that could not be read was kept as " + copy + ": copy your providers back from it into "
                + "settings.json.";
    }

    /** The first-run notice: where replies come from, and how to get real ones. */
    static String notice(Path settingsFile) {
        return "No provider is configured, so replies come from the built-in simulator, "
                + BuiltInSimulator.DISPLAY_NAME + ": offline canned answers, not a real model. To chat with a real "
                + "model, add a provider to " + settingsFile + " and its API key to credentials.json beside it (see "
                + "README.md, \"Using it\", and docs/settings.md). To make failures happen on purpose, see "
                + "docs/simulator.md.";
    }
}
