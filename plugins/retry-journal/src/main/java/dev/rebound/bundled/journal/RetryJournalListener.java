package dev.rebound.bundled.journal;

import dev.rebound.api.PluginContext;
import dev.rebound.api.RetryChainEnd;
import dev.rebound.api.SessionEventListener;
import org.pf4j.Extension;

/**
 * Writes one {@link JournalRecord} per finished retry chain to {@code retry-journal.jsonl} in the plugin's data
 * directory: the "why did it retry?" record a user can attach to a bug report. Chains are rare and a record is a
 * few hundred bytes, so it is written on the delivery thread.
 */
@Extension
public final class RetryJournalListener implements SessionEventListener {

    /** The journal's file name in the data directory. */
    public static final String FILE_NAME = "retry-journal.jsonl";

    private final JournalFile journal;
    private final String appVersion;

    /**
     * A journal in the plugin's data directory ({@link #FILE_NAME}); nothing is written until a chain ends.
     *
     * @param context the plugin's context, given by the host
     */
    public RetryJournalListener(PluginContext context) {
        this.journal = new JournalFile(context.dataDirectory().resolve(FILE_NAME));
        this.appVersion = context.appVersion();
    }

    @Override
    public void onRetryChainEnd(RetryChainEnd event) {
        journal.append(JournalRecord.of(event, appVersion));
    }
}
