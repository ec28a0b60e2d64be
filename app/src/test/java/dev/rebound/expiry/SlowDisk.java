package dev.rebound.expiry;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A disk under a test's control for {@link ExpiryStore}: every write of the file blocks, holding the store's file locks,
 * until the test {@link #release() releases} the disk (or fails once when told to). The stores it opens write on their
 * own writer thread, as the app's do.
 */
public final class SlowDisk implements AutoCloseable {
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch writing = new CountDownLatch(1);
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("test-expiry-writer").factory());

    /** A store of {@code file} on this disk. */
    public ExpiryStore open(Path file, Clock clock) {
        return ExpiryStore.open(file, clock, writer, this::write);
    }

    /** Waits until a write has begun (and is held), up to 10 s. */
    public boolean awaitWriting() throws InterruptedException {
        return writing.await(10, TimeUnit.SECONDS);
    }

    /** Lets every held and later write through. */
    public void release() {
        released.countDown();
    }

    /** The next {@code n} writes fail with an {@link IOException}, after being held like the others. */
    public void failNext(int n) {
        failuresLeft.set(n);
    }

    /** How many writes reached the disk (failed ones included). */
    public int writes() {
        return writes.get();
    }

    private void write(Path file, byte[] bytes) throws IOException {
        writes.incrementAndGet();
        writing.countDown();
        try {
            if (!released.await(30, TimeUnit.SECONDS)) {
                throw new IOException("the test never released the slow disk");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the disk was slow", e);
        }
        if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IOException("No space left on device");
        }
        ExpiryFile.Writing.ATOMIC.write(file, bytes);
    }

    @Override
    public void close() {
        release();
        writer.shutdownNow();
    }
}
