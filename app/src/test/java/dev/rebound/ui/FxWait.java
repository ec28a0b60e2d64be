package dev.rebound.ui;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testfx.util.WaitForAsyncUtils;

/** Waits for a condition checked on the FX thread, never for a fixed time: UI tests stay reliable on a busy machine. */
public final class FxWait {
    /** Long enough for a loaded 2-core machine; a passing test returns as soon as its condition holds. */
    public static final long SECONDS = 15;

    private FxWait() {}

    /** Returns once {@code condition}, evaluated on the FX thread, is true; throws after {@link #SECONDS}. */
    public static void until(Callable<Boolean> condition) throws Exception {
        until(condition, SECONDS);
    }

    /** Returns once {@code condition}, evaluated on the FX thread, is true; throws after {@code seconds}. */
    public static void until(Callable<Boolean> condition, long seconds) throws Exception {
        WaitForAsyncUtils.waitFor(
                seconds,
                TimeUnit.SECONDS,
                () -> WaitForAsyncUtils.asyncFx(condition).get());
    }
}
