package dev.rebound.ui.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A chat's session calls run one at a time and in order, even on a pool of many threads. */
class SerialExecutorTest {

    @Test
    void tasksRunInTheOrderGivenAndNeverTwoAtOnceOnAPoolOfThreads() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            SerialExecutor serial = new SerialExecutor(pool);
            List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger running = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1000);
            for (int i = 0; i < 1000; i++) {
                int n = i;
                serial.execute(() -> {
                    if (running.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    ran.add(n);
                    running.decrementAndGet();
                    done.countDown();
                });
            }

            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).isEqualTo(IntStream.range(0, 1000).boxed().toList());
            assertThat(overlaps.get()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailingTaskDoesNotStopTheOnesAfterIt() {
        SerialExecutor serial = new SerialExecutor(Runnable::run);
        List<String> ran = new ArrayList<>();

        serial.execute(() -> {
            throw new IllegalStateException("boom");
        });
        serial.execute(() -> ran.add("next"));

        assertThat(ran).containsExactly("next");
    }
}
