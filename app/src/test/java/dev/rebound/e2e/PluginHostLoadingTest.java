package dev.rebound.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.rebound.plugin.PluginHost;
import dev.rebound.plugin.PluginReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host loading real plugin archives in this JVM, with short time limits. */
class PluginHostLoadingTest {
    private static final String SLOW_START = "dev.rebound.itplugins.slowstart.SlowStartPlugin";
    private static final String CALLS = "rebound.it.slowStartCalls";

    @TempDir
    Path dir;

    @AfterEach
    void forgetCalls() {
        System.clearProperty("rebound.it.slowStartMillis");
    }

    @Test
    void aStartThatReturnsLateLeavesThePluginFailedAndItIsStoppedWhenTheAppExits() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        PluginArchiveBuilder.of("slow-start")
                .id("late-starter")
                .pluginClass(SLOW_START)
                .jar(plugins, "late.jar");
        PluginArchiveBuilder.of("recording").zip(plugins, "recording.zip");
        System.setProperty("rebound.it.slowStartMillis", "700");

        PluginHost host =
                PluginHost.start(options(plugins, Duration.ofMillis(300), Duration.ofSeconds(5)), message -> {});
        Map<String, PluginReport> reports = byId(host.plugins());

        assertThat(reports.get("late-starter").state()).isEqualTo(PluginReport.State.FAILED);
        assertThat(reports.get("late-starter").failure()).contains("start() did not return within");
        assertThat(reports.get("recording").state()).isEqualTo(PluginReport.State.ACTIVE);
        assertThat(cacheFolders())
                .singleElement()
                .satisfies(folder -> assertThat(folder.getFileName().toString())
                        .startsWith(ProcessHandle.current().pid() + "-"));
        awaitCall("start late-starter");
        assertThat(byId(host.plugins()).get("late-starter").state()).isEqualTo(PluginReport.State.FAILED);

        host.close();

        assertThat(System.getProperty(CALLS)).contains("stop late-starter");
        assertThat(cacheFolders()).isEmpty();
    }

    @Test
    void pluginsNotReachedWithinTheOverallLimitAreReportedFailedAndStartIsNotHeldLonger() throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        for (String id : List.of("never-a", "never-b", "never-c")) {
            PluginArchiveBuilder.of("slow-start").id(id).pluginClass(SLOW_START).jar(plugins, id + ".jar");
        }
        System.setProperty("rebound.it.slowStartMillis", "3000");

        long started = System.nanoTime();
        PluginHost host =
                PluginHost.start(options(plugins, Duration.ofMillis(600), Duration.ofMillis(1000)), message -> {});
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        List<PluginReport> reports = host.plugins();
        host.close();

        assertThat(took).isLessThan(Duration.ofMillis(2500));
        assertThat(reports).allSatisfy(r -> assertThat(r.state()).isEqualTo(PluginReport.State.FAILED));
        assertThat(reports)
                .filteredOn(r -> r.failure().contains("start() did not return within"))
                .hasSize(2);
        assertThat(reports)
                .filteredOn(r -> r.failure().startsWith("loading took too long"))
                .hasSize(1);
        assertThat(host.startupProblems()).anyMatch(p -> p.contains("was not started: loading took too long"));
    }

    @Test
    void aBundledPluginIsReportedOffWithoutBeingUnpackedUntilSettingsSwitchItOn() throws Exception {
        Path user = Files.createDirectories(dir.resolve("plugins"));
        Path bundled = Files.createDirectories(dir.resolve("bundled"));
        PluginArchiveBuilder.of("recording").zip(bundled, "recording.zip");
        PluginArchiveBuilder.of("recording").id("shipped-jar").jar(bundled, "shipped.jar");
        PluginArchiveBuilder.of("recording").id("own").zip(user, "own.zip");

        PluginHost off = PluginHost.start(bundledOptions(user, bundled, "{}"), message -> {});
        Map<String, PluginReport> reports = byId(off.plugins());
        List<Path> unpacked;
        try (Stream<Path> inCache = Files.list(cacheFolders().getFirst())) {
            unpacked = inCache.toList();
        }
        off.close();

        assertThat(reports.get("own").state()).isEqualTo(PluginReport.State.ACTIVE);
        assertThat(List.of(reports.get("recording"), reports.get("shipped-jar")))
                .allSatisfy(report -> {
                    assertThat(report.state()).isEqualTo(PluginReport.State.DISABLED);
                    assertThat(report.failure()).isEqualTo(PluginHost.OFF_UNTIL_SWITCHED_ON);
                });
        assertThat(reports.get("recording").version()).isNotBlank();
        assertThat(unpacked)
                .as("only the user's own zip is unpacked")
                .singleElement()
                .satisfies(folder -> assertThat(folder.getFileName().toString()).endsWith("own"));

        PluginHost on = PluginHost.start(
                bundledOptions(user, bundled, "{ \"plugins\": { \"recording\": { \"enabled\": true } } }"),
                message -> {});
        Map<String, PluginReport> switchedOn = byId(on.plugins());
        on.close();

        assertThat(switchedOn.get("recording").state()).isEqualTo(PluginReport.State.ACTIVE);
        assertThat(switchedOn.get("shipped-jar").state()).isEqualTo(PluginReport.State.DISABLED);
    }

    @Test
    void aStartWithOnlyOffBundledPluginsMakesNoCacheFolderAndClosesCleanly() throws Exception {
        Path user = Files.createDirectories(dir.resolve("plugins"));
        Path bundled = Files.createDirectories(dir.resolve("bundled"));
        PluginArchiveBuilder.of("recording").zip(bundled, "recording.zip");

        PluginHost host = PluginHost.start(bundledOptions(user, bundled, "{}"), message -> {});
        List<PluginReport> reports = host.plugins();
        host.close();

        assertThat(reports)
                .singleElement()
                .satisfies(report -> assertThat(report.state()).isEqualTo(PluginReport.State.DISABLED));
        assertThat(dir.resolve("plugin-cache")).as("nothing was unpacked").doesNotExist();
        assertThat(host.startupProblems()).isEmpty();
    }

    @Test
    void aCacheFolderThatCannotBeMadeFailsOnlyTheZipsAndNamesTheFolder() throws Exception {
        Path user = Files.createDirectories(dir.resolve("plugins"));
        PluginArchiveBuilder.of("recording").zip(user, "zipped.zip");
        PluginArchiveBuilder.of("recording").id("jarred").jar(user, "jarred.jar");
        Files.writeString(dir.resolve("plugin-cache"), "a file where the cache folder should be");

        PluginHost host = PluginHost.start(options(user, Duration.ofSeconds(5), Duration.ofSeconds(10)), m -> {});
        Map<String, PluginReport> reports = byId(host.plugins());
        host.close();

        assertThat(reports.get("jarred").state()).isEqualTo(PluginReport.State.ACTIVE);
        PluginReport zipped = reports.values().stream()
                .filter(r -> r.archive().endsWith("zipped.zip"))
                .findFirst()
                .orElseThrow();
        assertThat(zipped.state()).isEqualTo(PluginReport.State.INVALID);
        assertThat(zipped.failure()).contains("could not be unpacked").contains("plugin-cache");
    }

    @Test
    void aUsersOwnCopyOfABundledPluginWinsAndTheBundledOneIsADuplicate() throws Exception {
        Path user = Files.createDirectories(dir.resolve("plugins"));
        Path bundled = Files.createDirectories(dir.resolve("bundled"));
        PluginArchiveBuilder.of("recording").zip(user, "recording.zip");
        PluginArchiveBuilder.of("recording").zip(bundled, "recording.zip");

        PluginHost host = PluginHost.start(bundledOptions(user, bundled, "{}"), message -> {});
        List<PluginReport> reports = host.plugins();
        host.close();

        assertThat(reports)
                .extracting(PluginReport::state)
                .containsExactly(PluginReport.State.ACTIVE, PluginReport.State.DUPLICATE);
    }

    private PluginHost.Options bundledOptions(Path user, Path bundled, String settings) throws IOException {
        return new PluginHost.Options(
                List.of(user, bundled),
                id -> dir.resolve("plugin-data").resolve(id),
                dir.resolve("plugin-cache"),
                "0.1.0",
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(settings),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofSeconds(2),
                List.of(bundled));
    }

    private PluginHost.Options options(Path plugins, Duration pluginLimit, Duration totalLimit) {
        return new PluginHost.Options(
                List.of(plugins),
                id -> dir.resolve("plugin-data").resolve(id),
                dir.resolve("plugin-cache"),
                "0.1.0",
                JsonNodeFactory.instance.objectNode(),
                pluginLimit,
                totalLimit,
                Duration.ofSeconds(2),
                List.of());
    }

    private List<Path> cacheFolders() throws IOException {
        try (Stream<Path> folders = Files.list(dir.resolve("plugin-cache"))) {
            return folders.toList();
        }
    }

    private static Map<String, PluginReport> byId(List<PluginReport> reports) {
        return reports.stream().collect(Collectors.toMap(PluginReport::id, Function.identity()));
    }

    /** Waits for the slow plugin to record a call; the deadline is a failure bound, not a timing assertion. */
    private static void awaitCall(String call) throws InterruptedException {
        long deadline = System.nanoTime() + PluginFixtures.WAIT.toNanos();
        while (!System.getProperty(CALLS, "").contains(call)) {
            assertThat(System.nanoTime()).as("waiting for %s", call).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
