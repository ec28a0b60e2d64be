package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadBudgetTest {
    private final long[] now = {5_000_000_000L};
    private final LoadBudget budget = new LoadBudget(Duration.ofSeconds(5), Duration.ofSeconds(10), () -> now[0]);
    private final Path a = Path.of("a.jar");
    private final Path b = Path.of("b.jar");

    @Test
    void eachPluginHasItsOwnTimeAcrossAllItsSteps() {
        step(a, Duration.ofSeconds(2));
        step(a, Duration.ofSeconds(2));

        assertThat(budget.remaining(a)).isEqualTo(Duration.ofSeconds(1));
        assertThat(budget.remaining(b)).isEqualTo(Duration.ofSeconds(5));
        step(a, Duration.ofSeconds(1));
        assertThat(budget.exhausted(a)).contains("loading took too long: a plugin's steps may take 5000 ms in all");
        assertThat(budget.exhausted(b)).isEmpty();
    }

    @Test
    void allPluginsTogetherHaveTheOverallTimeAndThoseNotReachedAreTooLate() {
        step(a, Duration.ofSeconds(5));
        step(b, Duration.ofSeconds(4));

        assertThat(budget.remaining(Path.of("c.jar"))).isEqualTo(Duration.ofSeconds(1));
        now[0] += Duration.ofSeconds(1).toNanos();
        assertThat(budget.remaining(Path.of("c.jar"))).isZero();
        assertThat(budget.exhausted(Path.of("c.jar")))
                .hasValueSatisfying(reason ->
                        assertThat(reason).startsWith("loading took too long: all plugins together may take 10000 ms"));
    }

    private void step(Path plugin, Duration takes) {
        budget.charge(plugin, () -> now[0] += takes.toNanos());
    }
}
