package dev.rebound.app;

import dev.rebound.ui.ToolkitStartup;
import java.nio.file.Path;
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
     * Runs the command line. Parsing is cheap (no reflection: {@link CommandLineModel}), so it comes first; when the
     * window will open, the JavaFX toolkit is then started at once, before logging and the services, so that it
     * comes up alongside them.
     */
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line to its end and returns its exit code (for {@link AotTraining}, which runs several). */
    static int execute(String... args) {
        CommandLine cli = CommandLineModel.commandLine();
        cli.setExecutionStrategy(Main::run);
        return cli.execute(args);
    }

    private static int run(ParseResult parsed) {
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
        ToolkitStartup toolkit = options.opensWindow() ? ToolkitStartup.begin() : null;
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
