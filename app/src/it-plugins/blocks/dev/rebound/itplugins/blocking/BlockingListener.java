package dev.rebound.itplugins.blocking;

import dev.rebound.api.SessionEvent;
import dev.rebound.api.SessionEventListener;
import java.util.concurrent.locks.LockSupport;
import org.pf4j.Extension;

/** Never returns from its first call, even when interrupted. */
@Extension
public class BlockingListener implements SessionEventListener {
    @Override
    public void onEvent(SessionEvent event) {
        while (true) {
            LockSupport.park(this);
        }
    }
}
