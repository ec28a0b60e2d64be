package dev.rebound.app;

import dev.rebound.ui.ToolkitStartup;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The command line of {@code java -jar rebound.jar}. */
@Command(
        name = "rebound",
        mixinStandardHelpOptions = true,
        versionProvider = AppVersion.class,
        sortOptions = false,
        subcommands = SimulateCommand.class,
        description = {
            "A chat app whose conversations survive LLM provider failures.",
            "",
            "Modes: the desktop window (default), --mode rpc (headless, JSON lines on stdin/stdout),",
            "-p MESSAGE (one prompt, reply on stdout).",
            "With no provider configured, replies come from the built-in fault simulator (docs/simulator.md)."
        })
public final class Main implements Callable<Integer> {

    /** How Rebound runs. */
    public enum Mode {
        desktop,
        rpc
    }

    @Option(names = "--mode", paramLabel = "MODE", description = "desktop (default) or rpc.")
    Mode mode;

    @Option(
            names = {"-p", "--print"},
            paramLabel = "MESSAGE",
            description = "Send one prompt, print the reply as it streams, exit 0 (or non-zero with the error).")
    String print;

    @Option(
            names = "--config-dir",
            paramLabel = "DIR",
            description = "Where settings, credentials, sessions and logs live (default: $REBOUND_CONFIG_DIR, "
                    + "else the platform's config directory).")
    Path configDir;

    @Option(names = "--model", paramLabel = "PROVIDER/ID", description = "The model to start on.")
    String model;

    @Option(names = "--session", paramLabel = "FILE", description = "Resume a saved chat session.")
    Path session;

    @Option(names = "--plugins-dir", paramLabel = "DIR", description = "Also load plugins from DIR.")
    Path pluginsDir;

    @Option(names = "--no-plugins", description = "Load no plugins.")
    boolean noPlugins;

    @Option(
            names = "--scenario",
            paramLabel = "FILE",
            description = "Script failures of the built-in simulator from a JSON scenario (see docs/simulator.md).")
    Path scenario;

    /** The toolkit started before the command line was parsed, or null (see {@link #main}). */
    private final ToolkitStartup earlyToolkit;

    Main(ToolkitStartup earlyToolkit) {
        this.earlyToolkit = earlyToolkit;
    }

    @Override
    public Integer call() {
        if (earlyToolkit != null && (print != null || mode == Mode.rpc)) {
            earlyToolkit.abandon();
        }
        Launch launch = new Launch(configDir, model, session, pluginsDir, noPlugins, scenario);
        if (print != null && mode == Mode.rpc) {
            Console.errWriter().println("rebound: -p/--print and --mode rpc are two different modes; choose one.");
            return Launch.EXIT_USAGE;
        }
        if (print != null) {
            return launch.print(print);
        }
        if (mode == Mode.rpc) {
            return launch.rpc();
        }
        return launch.desktop(earlyToolkit != null ? earlyToolkit : ToolkitStartup.begin());
    }

    /**
     * Runs the command line. When it will open the window, the JavaFX toolkit is started first, before the command
     * line is parsed and logging is set up, so that it comes up alongside them.
     */
    public static void main(String[] args) {
        ToolkitStartup early = opensWindow(args) ? ToolkitStartup.begin() : null;
        CommandLine cli = new CommandLine(new Main(early))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(Console.helpWriter())
                .setErr(Console.errWriter());
        System.exit(cli.execute(args));
    }

    /**
     * Whether the command line asks for the window: no other mode, subcommand, help or version. Read before parsing,
     * so a wrong guess is possible (say, a bad option): then the toolkit started for nothing and is let go.
     */
    static boolean opensWindow(String[] args) {
        for (String arg : args) {
            if (arg.equals("simulate")
                    || arg.equals("--mode")
                    || arg.startsWith("--mode=")
                    || arg.equals("--print")
                    || arg.startsWith("--print=")
                    || arg.equals("--help")
                    || arg.equals("--version")
                    || (arg.startsWith("-")
                            && !arg.startsWith("--")
                            && (arg.contains("p") || arg.contains("h") || arg.contains("V")))) {
                return false;
            }
        }
        return true;
    }
}
