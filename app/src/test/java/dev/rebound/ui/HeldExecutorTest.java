package dev.rebound.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HeldExecutorTest {
    @Test
    void tasksWaitUntilReleasedThenRunInTheOrderTheyCame() {
        List<Runnable> passedOn = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        HeldExecutor held = new HeldExecutor(passedOn::add);

        held.execute(() -> ran.add("a"));
        held.execute(() -> ran.add("b"));
        assertThat(passedOn).isEmpty();

        held.release();
        held.execute(() -> ran.add("c"));
        passedOn.forEach(Runnable::run);

        assertThat(ran).containsExactly("a", "b", "c");
    }

    @Test
    void releasingTwiceChangesNothing() {
        List<Runnable> passedOn = new ArrayList<>();
        HeldExecutor held = new HeldExecutor(passedOn::add);
        held.execute(() -> {});

        held.release();
        held.release();

        assertThat(passedOn).hasSize(1);
    }

    @Test
    void noTaskFromAnotherThreadOvertakesTheHeldOnes() throws Exception {
        List<Integer> passedOn = new CopyOnWriteArrayList<>();
        List<Runnable> order = new CopyOnWriteArrayList<>();
        HeldExecutor held = new HeldExecutor(order::add);
        for (int i = 0; i < 1000; i++) {
            int n = i;
            held.execute(() -> passedOn.add(n));
        }
        CountDownLatch go = new CountDownLatch(1);
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int i = 1000; i < 2000; i++) {
                int n = i;
                held.execute(() -> passedOn.add(n));
            }
        });

        go.countDown();
        held.release();
        other.join(TimeUnit.SECONDS.toMillis(10));
        order.forEach(Runnable::run);

        assertThat(passedOn).hasSize(2000);
        assertThat(passedOn.subList(0, 1000)).isSorted();
        assertThat(passedOn.indexOf(999)).isLessThan(passedOn.indexOf(1000));
        assertThat(passedOn.subList(1000, 2000)).isSorted();
    }
}
