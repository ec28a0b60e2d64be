package dev.rebound.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.settings.TimeoutSettings;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StreamWatchdogTest {
    private final ScheduledExecutorService scheduler = StreamWatchdog.newScheduler();
    private final StreamWatchdog watchdog = new StreamWatchdog(scheduler);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void expiresInTheFirstBytePhaseWhenNoResponseStarts() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        try (StreamWatchdog.Watch watch = watchdog.watch(new TimeoutSettings(0, 100, 1_000), fired::countDown)) {
            assertThat(fired.await(1, TimeUnit.SECONDS)).isTrue();
            assertThat(watch.expired()).isEqualTo(StreamWatchdog.Phase.FIRST_BYTE);
        }
    }

    @Test
    void activityKeepsTheIdlePhaseAliveAndSilenceEndsIt() throws Exception {
        CountDownLatch fired = new CountDownLatch(1);
        try (StreamWatchdog.Watch watch = watchdog.watch(new TimeoutSettings(0, 1_000, 200), fired::countDown)) {
            watch.responseStarted();
            for (int i = 0; i < 6; i++) {
                Thread.sleep(40);
                watch.activity();
            }
            assertThat(watch.expired()).isNull();
            assertThat(fired.await(1, TimeUnit.SECONDS)).isTrue();
            assertThat(watch.expired()).isEqualTo(StreamWatchdog.Phase.IDLE);
        }
    }

    @Test
    void aClosedWatchNeverFires() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        StreamWatchdog.Watch watch = watchdog.watch(new TimeoutSettings(0, 50, 50), fired::incrementAndGet);
        watch.close();

        Thread.sleep(150);

        assertThat(fired).hasValue(0);
        assertThat(watch.expired()).isNull();
    }

    @Test
    void limitsOfZeroDisableTheTimeouts() throws Exception {
        AtomicInteger fired = new AtomicInteger();
        try (StreamWatchdog.Watch watch = watchdog.watch(new TimeoutSettings(0, 0, 0), fired::incrementAndGet)) {
            Thread.sleep(60);
            watch.responseStarted();
            Thread.sleep(60);

            assertThat(fired).hasValue(0);
            assertThat(watch.expired()).isNull();
        }
    }
}
