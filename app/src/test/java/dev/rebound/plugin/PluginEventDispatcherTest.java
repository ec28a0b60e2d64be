package dev.rebound.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rebound.api.AgentEnd;
import dev.rebound.api.AgentStart;
import dev.rebound.api.AutoRetryEnd;
import dev.rebound.api.AutoRetryStart;
import dev.rebound.api.CredentialSwitched;
import dev.rebound.api.DeltaKind;
import dev.rebound.api.ErrorKind;
import dev.rebound.api.MessageUpdate;
import dev.rebound.api.ModelRef;
import dev.rebound.api.Notice;
import dev.rebound.api.NoticeLevel;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.RetryEndReason;
import dev.rebound.api.RetryFallbackApplied;
import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import dev.rebound.api.SessionRef;
import dev.rebound.plugin.PluginEventDispatcher.PluginStatus;
import dev.rebound.plugin.PluginEventDispatcher.State;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PluginEventDispatcherTest {

    private static final long WAIT_SECONDS = 10;

    private final List<String> toldUser = new CopyOnWriteArrayList<>();
    private static final SessionRef CHAT = new SessionRef("s1", null);
    private final CountDownLatch userTold = new CountDownLatch(1);
    private final PluginEventDispatcher dispatcher = new PluginEventDispatcher(message -> {
        toldUser.add(message);
        userTold.countDown();
    });

    @AfterEach
    void closeDispatcher() {
        dispatcher.close();
    }

    @Test
    void aListenerReceivesExactlyThePublishedSequenceInOrder() throws Exception {
        List<SessionEvent> events = events(500);
        Recorder recorder = new Recorder(events.size());
        dispatcher.register("recorder", "1.0", recorder);

        events.forEach(dispatcher::publish);

        assertThat(recorder.done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(recorder.received).containsExactlyElementsOf(events);
        assertThat(recorder.threads).containsOnly("rebound-plugin-recorder");
        // The last call is counted just after it returns, so wait for the count rather than read it at once.
        awaitStatus("recorder", s -> s.delivered() == 500);
        assertThat(status("recorder")).isEqualTo(new PluginStatus("recorder", "1.0", State.ACTIVE, null, 500, 0, 0));
    }

    @Test
    void aListenerThatAlwaysThrowsIsDisabledAfterTenFailuresAndTheHealthyOneGetsEverything() throws Exception {
        List<SessionEvent> events = events(50);
        Recorder healthy = new Recorder(events.size());
        dispatcher.register("thrower", "2.0", new SessionEventListener() {
            @Override
            public void onNotice(Notice e) {
                throw new IllegalStateException("boom");
            }
        });
        dispatcher.register("healthy", "1.0", healthy);

        events.forEach(dispatcher::publish);

        assertThat(healthy.done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(userTold.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(healthy.received).containsExactlyElementsOf(events);
        assertThat(status("thrower"))
                .isEqualTo(new PluginStatus(
                        "thrower", "2.0", State.DISABLED, "java.lang.IllegalStateException: boom", 0, 0, 10));
        assertThat(status("healthy").state()).isEqualTo(State.ACTIVE);
        assertThat(toldUser)
                .containsExactly(
                        "Plugin thrower was disabled after 10 failures: java.lang.IllegalStateException: boom");
    }

    @Test
    void aPluginFailingOneEventInThreeKeepsReceivingEvents() throws Exception {
        CountDownLatch seen = publishToFlaky(3, 150, 150);

        assertThat(seen.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitStatus("flaky", s -> s.delivered() + s.failures() == 150);
        assertThat(status("flaky"))
                .isEqualTo(new PluginStatus(
                        "flaky", "1.0", State.ACTIVE, "java.lang.IllegalArgumentException: odd one", 100, 0, 50));
        assertThat(toldUser).isEmpty();
    }

    @Test
    void aPluginFailingEveryOtherEventIsDisabledByItsFailureRate() throws Exception {
        CountDownLatch seen = publishToFlaky(2, 60, 39);

        assertThat(userTold.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(seen.getCount()).isZero();
        assertThat(status("flaky"))
                .isEqualTo(new PluginStatus(
                        "flaky", "1.0", State.DISABLED, "java.lang.IllegalArgumentException: odd one", 19, 0, 20));
        assertThat(toldUser)
                .containsExactly("Plugin flaky was disabled after 20 failures in its last 39 events: "
                        + "java.lang.IllegalArgumentException: odd one");
    }

    @Test
    void aLinkageErrorIsContainedAndAttributed() throws Exception {
        List<SessionEvent> events = events(30);
        Recorder healthy = new Recorder(events.size());
        dispatcher.register("missing-class", "1.0", new SessionEventListener() {
            @Override
            public void onEvent(SessionEvent e) {
                throw new NoClassDefFoundError("com/example/Gone");
            }
        });
        dispatcher.register("healthy", "1.0", healthy);

        events.forEach(dispatcher::publish);

        assertThat(healthy.done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(userTold.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(healthy.received).containsExactlyElementsOf(events);
        PluginStatus status = status("missing-class");
        assertThat(status.state()).isEqualTo(State.DISABLED);
        assertThat(status.failures()).isEqualTo(10);
        assertThat(status.failure()).isEqualTo("java.lang.NoClassDefFoundError: com/example/Gone");
        assertThat(toldUser).singleElement().asString().startsWith("Plugin missing-class was disabled");
    }

    @Test
    void aStackOverflowIsContainedAndCounted() throws Exception {
        CountDownLatch overflowed = new CountDownLatch(1);
        dispatcher.register("recursive", "1.0", new SessionEventListener() {
            @Override
            public void onEvent(SessionEvent e) {
                if (overflowed.getCount() > 0) {
                    overflowed.countDown();
                    recurse(0);
                }
            }

            private int recurse(int depth) {
                return recurse(depth + 1) + 1;
            }
        });

        dispatcher.publish(new Notice(CHAT, null, NoticeLevel.INFO, "first"));
        dispatcher.publish(new Notice(CHAT, null, NoticeLevel.INFO, "second"));

        awaitStatus("recursive", s -> s.delivered() == 1);
        assertThat(status("recursive"))
                .isEqualTo(new PluginStatus("recursive", "1.0", State.ACTIVE, "java.lang.StackOverflowError", 1, 0, 1));
    }

    @Test
    void aListenerThatBlocksForeverDelaysNobodyAndItsDropsAreCounted() throws Exception {
        int total = 10_000;
        List<SessionEvent> events = events(total);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder healthy = new Recorder(total);
        dispatcher.register("blocker", "1.0", blockingUntil(entered, release));
        dispatcher.register("healthy", "1.0", healthy, total);

        dispatcher.publish(events.getFirst());
        assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        CountDownLatch published = new CountDownLatch(1);
        Thread publisher = Thread.ofPlatform().start(() -> {
            events.subList(1, total).forEach(dispatcher::publish);
            published.countDown();
        });

        assertThat(published.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        publisher.join();
        assertThat(healthy.done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(healthy.received).containsExactlyElementsOf(events);
        // The blocker holds the first event; its queue keeps the newest 1024; the rest were dropped and counted.
        int queued = dispatcher.queued("blocker");
        PluginStatus blocker = status("blocker");
        assertThat(queued).isEqualTo(PluginEventDispatcher.DEFAULT_CAPACITY);
        assertThat(blocker.dropped()).isEqualTo(total - 1 - PluginEventDispatcher.DEFAULT_CAPACITY);
        assertThat(blocker.delivered() + blocker.dropped() + queued + 1).isEqualTo(total);
        assertThat(blocker.state()).isEqualTo(State.ACTIVE);
        assertThat(status("healthy").dropped()).isZero();

        release.countDown();
        awaitStatus("blocker", s -> s.delivered() == 1 + PluginEventDispatcher.DEFAULT_CAPACITY);
        assertThat(dispatcher.queued("blocker")).isZero();
    }

    @Test
    void closeStopsEveryDeliveryThreadEvenOneThatIgnoresInterrupts() throws Exception {
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        dispatcher.register("healthy", "1.0", new Recorder(1));
        dispatcher.register("interruptible", "1.0", blockingUntil(entered, release));
        dispatcher.register("stubborn", "1.0", new SessionEventListener() {
            @Override
            public void onEvent(SessionEvent e) {
                entered.countDown();
                while (release.getCount() > 0) {
                    LockSupport.parkNanos(1_000_000); // ignores the interrupt
                }
            }
        });
        dispatcher.publish(new Notice(CHAT, null, NoticeLevel.INFO, "x"));
        assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();

        CountDownLatch closed = new CountDownLatch(1);
        Thread.ofPlatform().start(() -> {
            dispatcher.close();
            closed.countDown();
        });

        assertThat(closed.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(deliveryThread("healthy")).isEmpty();
        assertThat(deliveryThread("interruptible")).isEmpty();
        assertThat(deliveryThread("stubborn")).isNotEmpty();
        assertThat(deliveryThread("stubborn")).allMatch(Thread::isDaemon);
        dispatcher.publish(new Notice(CHAT, null, NoticeLevel.INFO, "after close")); // ignored, does not throw
        assertThat(status("healthy").delivered()).isEqualTo(1);
        assertThat(status("interruptible").failures()).isZero();
        release.countDown();
    }

    @Test
    void closeDeliversWhatIsQueuedThenClosesTheListenerOnceOnItsOwnThread() throws Exception {
        List<String> calls = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        class Closing implements SessionEventListener, AutoCloseable {
            @Override
            public void onEvent(SessionEvent e) {
                try {
                    release.await();
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
                calls.add(((Notice) e).message());
            }

            @Override
            public void close() {
                calls.add("close on " + Thread.currentThread().getName()
                        + (Thread.currentThread().isInterrupted() ? " (interrupted)" : ""));
            }
        }
        dispatcher.register("closing", "1.0", new Closing());
        events(3).forEach(dispatcher::publish);

        Thread closer = Thread.ofPlatform().start(dispatcher::close);
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

        assertThat(calls).containsExactly("event 0", "event 1", "event 2", "close on rebound-plugin-closing");
        dispatcher.close();
        assertThat(calls).hasSize(4);
    }

    @Test
    void aCallThatDoesNotReturnMakesThePluginStuckUntilItDoes() throws Exception {
        long[] now = {1_000};
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> told = new CopyOnWriteArrayList<>();
        PluginEventDispatcher timed = new PluginEventDispatcher(4, 10, told::add, () -> now[0]);
        try {
            timed.register("slow", "1.0", blockingUntil(entered, release));
            List<SessionEvent> events = deltas(6);
            timed.publish(events.getFirst());
            assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            events.subList(1, 6).forEach(timed::publish);
            assertThat(timed.statuses().getFirst().state()).isEqualTo(State.ACTIVE);

            now[0] += PluginEventDispatcher.STUCK_AFTER.toNanos() + 1_500_000_000L;
            PluginStatus stuck = timed.statuses().getFirst();
            assertThat(stuck.state()).isEqualTo(State.STUCK);
            assertThat(stuck.failure()).startsWith("a call has not returned for 4 s");
            assertThat(stuck.dropped()).isEqualTo(1);
            timed.publish(new Notice(CHAT, null, NoticeLevel.INFO, "one more"));
            timed.statuses();
            assertThat(told)
                    .containsExactly("Plugin slow is stuck: a call has not returned for 4 s; events wait in "
                            + "its queue and streaming deltas are dropped.");

            release.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (timed.statuses().getFirst().delivered() < 5 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(timed.statuses().getFirst().state()).isEqualTo(State.ACTIVE);
        } finally {
            release.countDown();
            timed.close();
        }
    }

    @Test
    void aListenerThatRestoresTheInterruptFlagKeepsReceivingEvents() throws Exception {
        List<SessionEvent> events = events(5);
        List<SessionEvent> received = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(events.size());
        dispatcher.register("interrupting", "1.0", new SessionEventListener() {
            @Override
            public void onEvent(SessionEvent e) {
                received.add(e);
                done.countDown();
                Thread.currentThread().interrupt(); // what "catch (InterruptedException e)" usually ends with
            }
        });

        dispatcher.publish(events.getFirst());
        awaitStatus("interrupting", s -> s.delivered() == 1);
        events.subList(1, events.size()).forEach(dispatcher::publish);

        assertThat(done.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(received).containsExactlyElementsOf(events);
        assertThat(status("interrupting").state()).isEqualTo(State.ACTIVE);
        assertThat(deliveryThread("interrupting")).isNotEmpty();
        assertThat(toldUser).isEmpty();
    }

    /** Registers "flaky", whose first call and every {@code period}-th after it throw, and publishes to it. */
    private CountDownLatch publishToFlaky(int period, int events, int expectedCalls) {
        CountDownLatch seen = new CountDownLatch(expectedCalls);
        dispatcher.register("flaky", "1.0", failingEvery(period, seen));
        events(events).forEach(dispatcher::publish);
        return seen;
    }

    private static SessionEventListener failingEvery(int period, CountDownLatch seen) {
        return new SessionEventListener() {
            private int n;

            @Override
            public void onEvent(SessionEvent e) {
                seen.countDown();
                if (n++ % period == 0) {
                    throw new IllegalArgumentException("odd one");
                }
            }
        };
    }

    /** A listener that signals its first call, then holds every call until released (an interrupt ends a wait). */
    @Test
    void aFloodOfDeltasNeverPushesOutTurnRetryFallbackOrCredentialEvents() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<SessionEvent> received = new CopyOnWriteArrayList<>();
        SessionEventListener blocking = blockingUntil(entered, release);
        dispatcher.register(
                "slow",
                "1.0",
                new SessionEventListener() {
                    @Override
                    public void onEvent(SessionEvent e) {
                        received.add(e);
                        blocking.onEvent(e);
                    }
                },
                8);
        ModelRef claude = new ModelRef("anthropic", "claude-sonnet-4-5");
        ModelRef gpt = new ModelRef("openai", "gpt-5");
        List<SessionEvent> lifecycle = List.of(
                new AgentEnd(CHAT, "t1", true),
                new AutoRetryStart(CHAT, "t1", 1, 10, 438, "529 Overloaded", ErrorKind.TRANSIENT, claude, "work", 9),
                new CredentialSwitched(CHAT, "t1", "anthropic", "work", "personal"),
                new RetryFallbackApplied(CHAT, "t1", claude, gpt, "default"),
                new AutoRetryEnd(CHAT, "t1", true, 1, null, RetryEndReason.SUCCEEDED),
                new RetryChainEnd(CHAT, "t1", List.of(), RetryEndReason.SUCCEEDED, null, 1, 2));

        dispatcher.publish(new AgentStart(CHAT, "t1"));
        assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        List<SessionEvent> flood = deltas(1_000);
        for (int i = 0; i < lifecycle.size(); i++) {
            flood.subList(i * 100, i * 100 + 100).forEach(dispatcher::publish);
            dispatcher.publish(lifecycle.get(i));
        }
        flood.subList(600, 1_000).forEach(dispatcher::publish);
        release.countDown();
        awaitStatus("slow", s -> s.delivered() == 1 + 8);

        assertThat(received).containsAll(lifecycle);
        assertThat(received.stream().filter(e -> !(e instanceof MessageUpdate)).toList())
                .containsExactlyElementsOf(java.util.stream.Stream.concat(
                                java.util.stream.Stream.of(received.getFirst()), lifecycle.stream())
                        .toList());
        assertThat(status("slow").dropped()).isEqualTo(1_000 - 2);
        assertThat(toldUser).isEmpty();
    }

    @Test
    void aQueueOfNothingButLifecycleEventsLosesTheOldestAndTheUserIsToldOnce() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        dispatcher.register("stuck", "1.0", blockingUntil(entered, release), 2);

        dispatcher.publish(new AgentStart(CHAT, "t1"));
        assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        events(5).forEach(dispatcher::publish);

        assertThat(status("stuck").dropped()).isEqualTo(3);
        assertThat(toldUser)
                .containsExactly("Plugin stuck is too slow to keep up and lost retry or turn events; "
                        + "what it records may be incomplete.");
        release.countDown();
    }

    @Test
    void aDeltaArrivingAtAQueueFullOfLifecycleEventsIsTheOneDropped() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<SessionEvent> received = new CopyOnWriteArrayList<>();
        SessionEventListener blocking = blockingUntil(entered, release);
        dispatcher.register(
                "held",
                "1.0",
                new SessionEventListener() {
                    @Override
                    public void onEvent(SessionEvent e) {
                        received.add(e);
                        blocking.onEvent(e);
                    }
                },
                2);
        dispatcher.publish(new AgentStart(CHAT, "t1"));
        assertThat(entered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        List<SessionEvent> notices = events(2);
        notices.forEach(dispatcher::publish);

        dispatcher.publish(deltas(1).getFirst());

        assertThat(status("held").dropped()).isEqualTo(1);
        release.countDown();
        awaitStatus("held", s -> s.delivered() == 3);
        assertThat(received.subList(1, 3)).containsExactlyElementsOf(notices);
        assertThat(toldUser).isEmpty();
    }

    private static List<SessionEvent> deltas(int n) {
        return IntStream.range(0, n)
                .<SessionEvent>mapToObj(i -> new MessageUpdate(CHAT, "t1", "m1", DeltaKind.TEXT, "token " + i))
                .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
    }

    private static SessionEventListener blockingUntil(CountDownLatch entered, CountDownLatch release) {
        return new SessionEventListener() {
            @Override
            public void onEvent(SessionEvent e) {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    private static List<SessionEvent> events(int n) {
        return IntStream.range(0, n)
                .<SessionEvent>mapToObj(i -> new Notice(CHAT, null, NoticeLevel.INFO, "event " + i))
                .toList();
    }

    private PluginStatus status(String id) {
        return dispatcher.statuses().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    /** Polls the status until it matches; the deadline is a failure bound, not a timing assertion. */
    private void awaitStatus(String id, java.util.function.Predicate<PluginStatus> condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.test(status(id))) {
            assertThat(System.nanoTime()).as("status of %s: %s", id, status(id)).isLessThan(deadline);
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private static List<Thread> deliveryThread(String id) {
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("rebound-plugin-" + id) && t.isAlive()) {
                found.add(t);
            }
        }
        return found;
    }

    /** Records every event it receives and the thread it received it on. */
    private static final class Recorder implements SessionEventListener {
        final List<SessionEvent> received = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        final CountDownLatch done;

        Recorder(int expected) {
            this.done = new CountDownLatch(expected);
        }

        @Override
        public void onEvent(SessionEvent e) {
            received.add(e);
            threads.add(Thread.currentThread().getName());
            done.countDown();
        }
    }
}
