package dev.rebound.itplugins.slowstart;

import dev.rebound.api.SessionEventListener;
import org.pf4j.Extension;

/** Receives events and does nothing with them: the plugin is about its start(). */
@Extension
public class QuietListener implements SessionEventListener {}
