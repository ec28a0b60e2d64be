package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The guess, made before the command line is parsed, of whether the window will open (the toolkit starts early), and
 * the process's clean exit when the guess was wrong.
 */
class MainTest {

    @Test
    void noArgumentsOrOnlyDesktopOptionsOpenTheWindow() {
        assertThat(Main.opensWindow(new String[] {})).isTrue();
        assertThat(Main.opensWindow(new String[] {
                    "--config-dir",
                    "/tmp/x",
                    "--model",
                    "local/m",
                    "--no-plugins",
                    "--session",
                    "a.jsonl",
                    "--scenario",
                    "s.json",
                    "--plugins-dir",
                    "plugins"
                }))
                .isTrue();
    }

    @Test
    void otherModesSubcommandsHelpAndVersionDoNot() {
        for (String[] args : new String[][] {
            {"--mode", "rpc"},
            {"--mode=rpc"},
            {"-p", "hi"},
            {"-phi"},
            {"--print", "hi"},
            {"--print=hi"},
            {"simulate", "--port", "0"},
            {"--help"},
            {"-h"},
            {"--version"},
            {"-V"}
        }) {
            assertThat(Main.opensWindow(args)).as(String.join(" ", args)).isFalse();
        }
    }
}
