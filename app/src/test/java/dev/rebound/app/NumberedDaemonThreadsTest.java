package dev.rebound.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The background pool's threads: numbered in order, daemons, handed back unstarted as a thread factory must. */
class NumberedDaemonThreadsTest {
    @Test
    void threadsAreNumberedFromZeroInTheOrderTheyAreMade() {
        NumberedDaemonThreads threads = new NumberedDaemonThreads("rebound-background-");
        assertThat(threads.newThread(() -> {}).getName()).isEqualTo("rebound-background-0");
        assertThat(threads.newThread(() -> {}).getName()).isEqualTo("rebound-background-1");
        assertThat(new NumberedDaemonThreads("other-").newThread(() -> {}).getName())
                .isEqualTo("other-0");
    }

    @Test
    void threadsAreUnstartedDaemonsThatRunTheirTask() throws InterruptedException {
        boolean[] ran = new boolean[1];
        Thread thread = new NumberedDaemonThreads("t-").newThread(() -> ran[0] = true);
        assertThat(thread.isDaemon()).isTrue();
        assertThat(thread.getState()).isEqualTo(Thread.State.NEW);
        thread.start();
        thread.join();
        assertThat(ran[0]).isTrue();
    }
}
