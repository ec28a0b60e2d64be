package dev.rebound.itplugins.slowstart;

import org.pf4j.Plugin;
import org.pf4j.PluginWrapper;

/**
 * Takes {@code rebound.it.slowStartMillis} ms (a system property of the test) to start, and appends "start <id>" and
 * "stop <id>" to the system property {@code rebound.it.slowStartCalls} when its start() and stop() return, so that a
 * test in the same JVM can see them.
 */
public class SlowStartPlugin extends Plugin {
    private static final String CALLS = "rebound.it.slowStartCalls";

    /** PF4J passes the wrapper, which names the plugin (the same sources are packed under several ids). */
    public SlowStartPlugin(PluginWrapper wrapper) {
        super(wrapper);
    }

    @Override
    public void start() {
        try {
            Thread.sleep(Long.getLong("rebound.it.slowStartMillis", 0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        record("start");
    }

    @Override
    public void stop() {
        record("stop");
    }

    private void record(String call) {
        synchronized (System.class) {
            String before = System.getProperty(CALLS, "");
            System.setProperty(CALLS, before + call + " " + getWrapper().getPluginId() + "\n");
        }
    }
}
