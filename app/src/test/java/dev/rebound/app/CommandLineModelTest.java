package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The command line built in code: what each option parses to, the help text, and how mistakes are answered. */
class CommandLineModelTest {

    private static CommandLine cli(StringWriter out, StringWriter err) {
        return new CommandLine(CommandLineModel.rebound())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true));
    }

    private static Main.Options parse(String... args) {
        ParseResult parsed = cli(new StringWriter(), new StringWriter()).parseArgs(args);
        return CommandLineModel.options(parsed);
    }

    @Test
    void everyOptionOfTheAppIsReadIntoTheOptions() {
        Main.Options options = parse(
                "--mode",
                "RPC",
                "--config-dir",
                "/tmp/x",
                "--model",
                "local/m",
                "--session",
                "a.jsonl",
                "--plugins-dir",
                "plugins",
                "--no-plugins",
                "--scenario",
                "s.json");
        assertThat(options)
                .isEqualTo(new Main.Options(
                        Main.Mode.rpc,
                        null,
                        Path.of("/tmp/x"),
                        "local/m",
                        Path.of("a.jsonl"),
                        Path.of("plugins"),
                        true,
                        Path.of("s.json")));
        assertThat(options.opensWindow()).isFalse();
    }

    @Test
    void onlyARunWithoutAnotherModeOpensTheWindow() {
        assertThat(parse().opensWindow()).isTrue();
        assertThat(parse("--config-dir", "/tmp/x", "--no-plugins").opensWindow())
                .isTrue();
        assertThat(parse("--mode", "desktop").opensWindow()).isTrue();
        assertThat(parse("--mode=rpc").opensWindow()).isFalse();
        assertThat(parse("-p", "hi").print()).isEqualTo("hi");
        assertThat(parse("-phi").opensWindow()).isFalse();
        assertThat(parse("--print=hi").opensWindow()).isFalse();
    }

    @Test
    void theSimulateSubcommandReadsItsOwnOptionsWithDefaults() {
        ParseResult parsed = cli(new StringWriter(), new StringWriter()).parseArgs("simulate", "--seed", "7");
        assertThat(parsed.subcommand()).isNotNull();
        SimulateCommand command = CommandLineModel.simulateCommand(parsed.subcommand());
        assertThat(command)
                .extracting("port", "scenario", "tokensPerSecond", "seed")
                .containsExactly(0, null, 120.0, 7L);
    }

    @Test
    void helpListsEveryOptionInOrderWithTheStandardHelpOptionsLast() {
        StringWriter out = new StringWriter();
        assertThat(cli(out, new StringWriter()).execute("--help")).isZero();
        String help = out.toString();
        assertThat(help)
                .startsWith("Usage: rebound [-hV] [--no-plugins]")
                .contains("A chat app whose conversations survive LLM provider failures.")
                .contains("  -p, --print=MESSAGE")
                .contains("Commands:\n  simulate  Run the fault simulator");
        assertThat(help.indexOf("--mode=MODE")).isLessThan(help.indexOf("--print=MESSAGE"));
        assertThat(help.indexOf("--scenario=FILE  ")).isLessThan(help.indexOf("-h, --help"));
        assertThat(help.indexOf("-h, --help")).isLessThan(help.indexOf("-V, --version"));
    }

    @Test
    void theSimulateHelpShowsTheDefaultRate() {
        StringWriter out = new StringWriter();
        assertThat(cli(out, new StringWriter()).execute("simulate", "--help")).isZero();
        assertThat(out.toString())
                .startsWith("Usage: rebound simulate [-hV]")
                .contains("Streaming rate (default: 120; 0 = as fast as possible).");
    }

    @Test
    void aMistakeIsExitCodeTwoWithTheReasonAndTheUsage() {
        for (String[] args :
                new String[][] {{"--bogus"}, {"--mode", "foo"}, {"-p"}, {"extra"}, {"simulate", "--port", "x"}}) {
            StringWriter err = new StringWriter();
            CommandLine cli = cli(new StringWriter(), err);
            cli.setExecutionStrategy(parsed -> {
                throw new AssertionError("ran despite a mistake: " + String.join(" ", args));
            });
            assertThat(cli.execute(args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).as(String.join(" ", args)).contains("Usage: rebound");
        }
    }

    @Test
    void aWrongModeNamesTheChoices() {
        StringWriter err = new StringWriter();
        cli(new StringWriter(), err).execute("--mode", "foo");
        assertThat(err.toString())
                .startsWith("Invalid value for option '--mode': expected one of [desktop, rpc] (case-insensitive) but "
                        + "was 'foo'");
    }

    @Test
    void theVersionNamesTheApp() {
        StringWriter out = new StringWriter();
        assertThat(cli(out, new StringWriter()).execute("-V")).isZero();
        assertThat(out.toString()).startsWith("Rebound ");
    }
}
