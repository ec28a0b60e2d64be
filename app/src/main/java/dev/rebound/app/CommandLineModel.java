package dev.rebound.app;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Rebound's command line, built with picocli's programmatic API rather than its annotations: reading annotations
 * reflectively cost about a fifth of a second of every start, before anything useful happened. The help text, the
 * error messages and the exit codes are picocli's, as before.
 */
final class CommandLineModel {
    static final String SIMULATE = "simulate";

    /**
     * Makes what picocli asks a factory for by its no-argument constructor. picocli's own factory, which this model
     * has no use for (it makes annotated commands and their collections), looks for Groovy's classes as it
     * initialises: a search of every jar on the class path, ~9 ms before anything else could run (docs/startup.md).
     */
    private static final CommandLine.IFactory FACTORY = new CommandLine.IFactory() {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            return type.getDeclaredConstructor().newInstance();
        }
    };

    private CommandLineModel() {}

    /** A picocli command line for {@code rebound} and its {@code simulate} subcommand, writing to the console. */
    static CommandLine commandLine() {
        return new CommandLine(rebound(), FACTORY)
                // picocli reaches Path's factory reflectively (it runs on Java 5); this skips that (~3 ms).
                .registerConverter(Path.class, value -> Path.of(value))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(Console.helpWriter())
                .setErr(Console.errWriter());
    }

    static CommandSpec rebound() {
        CommandSpec spec =
                CommandSpec.wrapWithoutInspection(null, FACTORY).name("rebound").versionProvider(new AppVersion());
        spec.usageMessage()
                .sortOptions(false)
                .description(
                        "A chat app whose conversations survive LLM provider failures.",
                        "",
                        "Modes: the desktop window (default), --mode rpc (headless, JSON lines on stdin/stdout),",
                        "-p MESSAGE (one prompt, reply on stdout).",
                        "With no provider configured, replies come from the built-in fault simulator "
                                + "(docs/simulator.md).");
        spec.addOption(option("--mode", "MODE", Main.Mode.class, "desktop (default) or rpc."));
        spec.addOption(OptionSpec.builder("-p", "--print")
                .paramLabel("MESSAGE")
                .type(String.class)
                .description("Send one prompt, print the reply as it streams, exit 0 (or non-zero with the error).")
                .build());
        spec.addOption(option(
                "--config-dir",
                "DIR",
                Path.class,
                "Where settings, credentials, sessions and logs live (default: $REBOUND_CONFIG_DIR, else the "
                        + "platform's config directory)."));
        spec.addOption(option("--model", "PROVIDER/ID", String.class, "The model to start on."));
        spec.addOption(option("--session", "FILE", Path.class, "Resume a saved chat session."));
        spec.addOption(option("--plugins-dir", "DIR", Path.class, "Also load plugins from DIR."));
        spec.addOption(flag("--no-plugins", "Load no plugins."));
        spec.addOption(option(
                "--scenario",
                "FILE",
                Path.class,
                "Script failures of the built-in simulator from a JSON scenario (see docs/simulator.md)."));
        addStandardHelpOptions(spec);
        spec.addSubcommand(SIMULATE, new CommandLine(simulate(), FACTORY));
        return spec;
    }

    static CommandSpec simulate() {
        CommandSpec spec =
                CommandSpec.wrapWithoutInspection(null, FACTORY).name(SIMULATE).versionProvider(new AppVersion());
        spec.usageMessage()
                .sortOptions(false)
                .description("Run the fault simulator: a fake OpenAI-compatible server on 127.0.0.1 that streams "
                        + "canned replies and fails on cue (see docs/simulator.md). Runs until Ctrl+C.");
        spec.addOption(OptionSpec.builder("--port")
                .paramLabel("N")
                .type(int.class)
                .defaultValue("0")
                .description("Port on 127.0.0.1 (default: 0, any free port).")
                .build());
        spec.addOption(option(
                "--scenario", "FILE", Path.class, "A JSON scenario: the fault steps the requests consume, in order."));
        spec.addOption(OptionSpec.builder("--tokens-per-second")
                .paramLabel("R")
                .type(double.class)
                .defaultValue("120")
                .description("Streaming rate (default: ${DEFAULT-VALUE}; 0 = as fast as possible).")
                .build());
        spec.addOption(option("--seed", "S", Long.class, "Makes replies repeatable (default: random)."));
        addStandardHelpOptions(spec);
        return spec;
    }

    /** The options of a run of Rebound itself (not of a subcommand), read from a parse. */
    static Main.Options options(ParseResult parsed) {
        return new Main.Options(
                parsed.matchedOptionValue("--mode", null),
                parsed.matchedOptionValue("--print", null),
                parsed.matchedOptionValue("--config-dir", null),
                parsed.matchedOptionValue("--model", null),
                parsed.matchedOptionValue("--session", null),
                parsed.matchedOptionValue("--plugins-dir", null),
                parsed.hasMatchedOption("--no-plugins"),
                parsed.matchedOptionValue("--scenario", null));
    }

    /** The options of {@code rebound simulate}, read from its parse. */
    static SimulateCommand simulateCommand(ParseResult parsed) {
        return new SimulateCommand(
                parsed.matchedOptionValue("--port", 0),
                parsed.matchedOptionValue("--scenario", null),
                parsed.matchedOptionValue("--tokens-per-second", 120.0),
                parsed.matchedOptionValue("--seed", null));
    }

    private static OptionSpec option(String name, String label, Class<?> type, String description) {
        return OptionSpec.builder(name)
                .paramLabel(label)
                .type(type)
                .description(description)
                .build();
    }

    private static OptionSpec flag(String name, String description) {
        return OptionSpec.builder(name)
                .arity("0")
                .type(boolean.class)
                .description(description)
                .build();
    }

    /** {@code -h/--help} and {@code -V/--version}, worded as picocli's standard ones. */
    private static void addStandardHelpOptions(CommandSpec spec) {
        spec.addOption(OptionSpec.builder("-h", "--help")
                .usageHelp(true)
                .arity("0")
                .type(boolean.class)
                .description("Show this help message and exit.")
                .build());
        spec.addOption(OptionSpec.builder("-V", "--version")
                .versionHelp(true)
                .arity("0")
                .type(boolean.class)
                .description("Print version information and exit.")
                .build());
    }
}
