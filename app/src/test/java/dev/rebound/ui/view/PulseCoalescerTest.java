package dev.rebound.ui.view;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** However many deltas arrive between two frames, a streaming reply is re-rendered once, at the next pulse. */
class PulseCoalescerTest {

    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @Test
    void manyRequestsBeforeAPulseRunTheActionOnce() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PulseCoalescer coalescer = new PulseCoalescer(runs::incrementAndGet);

        WaitForAsyncUtils.asyncFx(() -> {
                    for (int i = 0; i < 500; i++) {
                        coalescer.request();
                    }
                })
                .get();
        WaitForAsyncUtils.waitFor(5, java.util.concurrent.TimeUnit.SECONDS, () -> runs.get() > 0);
        Thread.sleep(200);

        assertThat(runs.get())
                .as("runs for 500 requests made within one FX task")
                .isEqualTo(1);
        WaitForAsyncUtils.asyncFx(coalescer::request).get();
        WaitForAsyncUtils.waitFor(5, java.util.concurrent.TimeUnit.SECONDS, () -> runs.get() == 2);
    }

    @Test
    void aCancelledRequestDoesNotRun() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PulseCoalescer coalescer = new PulseCoalescer(runs::incrementAndGet);

        WaitForAsyncUtils.asyncFx(() -> {
                    coalescer.request();
                    coalescer.cancel();
                })
                .get();
        Thread.sleep(200);

        assertThat(runs.get()).isZero();
    }
}
