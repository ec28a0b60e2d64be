package dev.rebound.app;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** The app's version, from the build. */
public final class AppVersion implements CommandLine.IVersionProvider {

    /** The version string, e.g. {@code 0.1.0-SNAPSHOT}; {@code unknown} when run from unpackaged classes. */
    public static String current() {
        try (InputStream in = AppVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {"Rebound " + current() + " (Java " + Runtime.version() + ")"};
    }
}
