package dev.rebound.app;

import dev.rebound.ui.ToolkitStartup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The entry point of {@code rebound} ({@code java -jar rebound.jar}): parses the command line and runs the mode. */
public final class Main {

    /** How Rebound runs. */
    public enum Mode {
        desktop,
        rpc
    }

    /** The options of a run of Rebound itself; null where not given. */
    record Options(
            Mode mode,
            String print,
            Path configDir,
            String model,
            Path session,
            Path pluginsDir,
            boolean noPlugins,
            Path scenario) {

        boolean opensWindow() {
            return print == null && mode != Mode.rpc;
        }
    }

    private Main() {}

    /**
     * Runs the command line. {@link StartupPrefetch} starts first; then, when the command line looks like it will
     * open the window, the JavaFX toolkit, on a thread of its own, so that it comes up while the command line is
     * parsed and logging and the services load. A wrong guess (a mistyped option, say) only waits for the toolkit to
     * be up before the process exits.
     */
    public static void main(String[] args) {
        StartupPrefetch.begin();
        System.exit(execute(opensWindow(args) ? ToolkitStartup.begin() : null, args));
    }

    /** Runs a command line to its end and returns its exit code (for {@link AotTraining}, which runs several). */
    static int execute(String... args) {
        return execute(opensWindow(args) ? ToolkitStartup.begin() : null, args);
    }

    private static int execute(ToolkitStartup early, String... args) {
        CommandLine cli = CommandLineModel.commandLine();
        AtomicBoolean used = new AtomicBoolean();
        cli.setExecutionStrategy(parsed -> run(parsed, early, used));
        int code = cli.execute(args);
        if (early != null && !used.get()) {
            early.awaitStartedBeforeExit(TOOLKIT_LET_GO);
        }
        return code;
    }

    /** How long a toolkit started for nothing may take to come up before the process exits anyway. */
    private static final Duration TOOLKIT_LET_GO = Duration.ofSeconds(5);

    /**
     * Whether the command line asks for the window: no other mode, subcommand, help or version. Read before parsing,
     * so a wrong guess is possible (a bad option): then the toolkit started for nothing and is let go.
     */
    static boolean opensWindow(String[] args) {
        for (String arg : args) {
            if (arg.equals(CommandLineModel.SIMULATE)
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

    private static int run(ParseResult parsed, ToolkitStartup early, AtomicBoolean used) {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
            return help;
        }
        if (parsed.subcommand() != null) {
            return CommandLineModel.simulateCommand(parsed.subcommand()).run();
        }
        Options options = CommandLineModel.options(parsed);
        if (options.print() != null && options.mode() == Mode.rpc) {
            Console.errWriter().println("rebound: -p/--print and --mode rpc are two different modes; choose one.");
            return Launch.EXIT_USAGE;
        }
        ToolkitStartup toolkit = null;
        if (options.opensWindow()) {
            toolkit = early != null ? early : ToolkitStartup.begin();
            used.set(true);
        }
        Launch launch = new Launch(
                options.configDir(),
                options.model(),
                options.session(),
                options.pluginsDir(),
                options.noPlugins(),
                options.scenario());
        if (options.print() != null) {
            return launch.print(options.print());
        }
        if (options.mode() == Mode.rpc) {
            return launch.rpc();
        }
        return launch.desktop(toolkit);
    }
}
