package dev.rebound.plugin;

import java.util.Optional;
import org.pf4j.DefaultVersionManager;
import org.pf4j.VersionManager;

/**
 * Decides whether a plugin's {@code Plugin-Requires} accepts this app, with PF4J's SemVer expressions
 * ({@code >=0.2.0}, {@code >=0.2.0 & <1.0.0}, {@code ^0.2}, ...). A bare version {@code 0.2.0} means "at least 0.2.0",
 * as in PF4J. An empty or {@code *} requirement accepts every version.
 *
 * <p>The app version is compared without its qualifier: {@code 0.1.0-SNAPSHOT} counts as {@code 0.1.0}, so a plugin
 * written for the coming release loads on its development builds (SemVer would otherwise put a pre-release below
 * {@code >=0.1.0}). An app whose version is unknown (run from unpackaged classes) accepts every plugin.
 *
 * <p>Plugin API 2 (session-scoped events, Rebound 0.2) broke every plugin built for line 1, whose events had other
 * shapes: such a plugin would load and then fail on every event. A plugin whose requirement also accepts a Rebound
 * of line 1 ({@value #LAST_API_1_APP}) was built for that line, and is refused with what to do instead.
 */
final class RequiresCheck {
    /** The last Rebound version whose plugin API was line 1. */
    static final String LAST_API_1_APP = "0.1.0";

    private final String appVersion;
    private final String systemVersion;
    private final VersionManager versions = new DefaultVersionManager();

    RequiresCheck(String appVersion) {
        this.appVersion = appVersion;
        this.systemVersion = systemVersion(appVersion);
    }

    /** The version PF4J compares against: the app version without qualifier; {@code 0.0.0} (accept all) if unknown. */
    static String systemVersion(String appVersion) {
        if (appVersion == null) {
            return "0.0.0";
        }
        // Plain string work, not two regular expressions: compiling them was ~7 ms of every start (docs/startup.md).
        String version = appVersion.strip();
        int qualifier = version.length();
        for (int i = 0; i < version.length(); i++) {
            if (version.charAt(i) == '-' || version.charAt(i) == '+') {
                qualifier = i;
                break;
            }
        }
        String release = version.substring(0, qualifier);
        return isMajorMinorPatch(release) ? release : "0.0.0";
    }

    /** {@code N.N.N}, each N one or more ASCII digits. */
    private static boolean isMajorMinorPatch(String text) {
        int dots = 0;
        boolean digitBefore = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digitBefore = true;
            } else if (c == '.' && digitBefore && dots < 2) {
                dots++;
                digitBefore = false;
            } else {
                return false;
            }
        }
        return dots == 2 && digitBefore;
    }

    /** The version given to PF4J as its system version. */
    String systemVersion() {
        return systemVersion;
    }

    /**
     * Why a plugin with this requirement is refused, or empty when it is accepted.
     *
     * @param requires the {@code Plugin-Requires} value, may be null or blank
     */
    Optional<String> refusal(String requires) {
        String expression = requires == null ? "" : requires.strip();
        if (expression.isEmpty() || expression.equals("*") || systemVersion.equals("0.0.0")) {
            return Optional.empty();
        }
        if (expression.matches("\\d+\\.\\d+\\.\\d+")) {
            expression = ">=" + expression;
        }
        boolean accepted;
        try {
            accepted = versions.checkVersionConstraint(systemVersion, expression);
        } catch (RuntimeException e) {
            return Optional.of("its Plugin-Requires '" + requires.strip() + "' is not a version expression Rebound "
                    + "understands (e.g. >=0.2.0 or >=0.2.0 & <1.0.0); fix the plugin's MANIFEST");
        }
        if (accepted && versions.checkVersionConstraint(LAST_API_1_APP, expression)) {
            return Optional.of("it looks built for plugin API 1: its Plugin-Requires '" + requires.strip()
                    + "' accepts Rebound " + LAST_API_1_APP + ", and this Rebound speaks plugin API 2; rebuild it "
                    + "against plugin-api 2 and require >=0.2.0 (docs/plugin-api-compatibility.md)");
        }
        if (accepted) {
            return Optional.empty();
        }
        String compared = appVersion.equals(systemVersion) ? "" : " (compared as " + systemVersion + ")";
        return Optional.of("it requires Rebound " + requires.strip() + " but this is Rebound " + appVersion + compared
                + "; use a version of the plugin made for this Rebound");
    }
}
