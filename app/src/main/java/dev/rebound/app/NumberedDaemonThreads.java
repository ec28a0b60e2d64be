package dev.rebound.app;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon platform threads named {@code prefix0}, {@code prefix1}, ... The JDK's {@code
 * Thread.ofPlatform().name(prefix, 0).factory()} counts with a {@code VarHandle}, whose method handles are spun on
 * first use: ~5 ms of the main thread in a wall-clock profile of the start (docs/startup.md, "Third pass"). An {@link
 * AtomicInteger} needs none.
 */
final class NumberedDaemonThreads implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger next = new AtomicInteger();

    NumberedDaemonThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        return Thread.ofPlatform()
                .daemon(true)
                .name(prefix + next.getAndIncrement())
                .unstarted(task);
    }
}
