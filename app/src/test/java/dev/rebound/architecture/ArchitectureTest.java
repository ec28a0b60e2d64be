package dev.rebound.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMembers;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The architecture, as rules that fail the build. Each rule says why it exists.
 */
class ArchitectureTest {
    private static final JavaClasses REBOUND = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.rebound");

    private static void check(ArchRule rule) {
        rule.check(REBOUND);
    }

    /** Classes outside Rebound, or in one of these Rebound packages (and their subpackages). */
    private static DescribedPredicate<JavaClass> inAppOnly(String... packages) {
        return DescribedPredicate.describe("outside Rebound or in " + String.join(", ", packages), c -> {
            String name = c.getPackageName();
            return !name.startsWith("dev.rebound")
                    || Arrays.stream(packages).anyMatch(p -> name.equals(p) || name.startsWith(p + "."));
        });
    }

    @Test
    void javaFxIsUsedOnlyInTheUiPackage() {
        check(noClasses()
                .that()
                .resideOutsideOfPackage("dev.rebound.ui..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("javafx..")
                .because("the session core, providers and RPC mode run headless and are tested without a display; "
                        + "only the desktop UI may need JavaFX"));
    }

    @Test
    void thePluginApiDependsOnTheJdkAndPf4jOnly() {
        check(classes()
                .that()
                .resideInAPackage("dev.rebound.api..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.rebound.api..", "org.pf4j..")
                .because("plugin authors compile against plugin-api alone; any other dependency would leak into "
                        + "every plugin and tie them to the app's internals and library versions"));
    }

    @Test
    void onlyThePluginHostUsesThePublishedApi() {
        check(noClasses()
                .that()
                .resideOutsideOfPackages("dev.rebound.plugin..", "dev.rebound.api..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rebound.api..")
                .because("the published records are a contract with plugin authors, mapped once from the core's own "
                        + "model (plugin.PublishedEvents): if the core used them, every internal change would be a "
                        + "break for plugins, as it was before plugin API 2.0"));
    }

    @Test
    void theChatModelIsTheBottomLayer() {
        check(classes()
                .that()
                .resideInAnyPackage("dev.rebound.transcript..", "dev.rebound.event..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "dev.rebound.transcript..", "dev.rebound.event..")
                .because("messages and session events are the vocabulary every layer speaks (providers, retry, "
                        + "session, history, front ends); depending on any of them would tie the vocabulary to one "
                        + "speaker and make cycles"));
    }

    @Test
    void sharedFileHandlingDependsOnNothingOfTheApp() {
        check(classes()
                .that()
                .resideInAPackage("dev.rebound.files..")
                .should()
                .onlyDependOnClassesThat(inAppOnly("dev.rebound.files"))
                .because("atomic writes, backups, tolerant JSON reading and file problems serve settings, "
                        + "credentials, chats and expiry stores alike; a dependency on any of them would make the "
                        + "others depend on it too (these helpers lived in settings until plugin API 2.0)"));
    }

    @Test
    void theJsonLayerKnowsOnlyTheChatModel() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.json..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.rebound.session..",
                        "dev.rebound.retry..",
                        "dev.rebound.fallback..",
                        "dev.rebound.auth..",
                        "dev.rebound.provider..",
                        "dev.rebound.settings..",
                        "dev.rebound.history..",
                        "dev.rebound.expiry..",
                        "dev.rebound.plugin..",
                        "dev.rebound.rpc..",
                        "dev.rebound.ui..",
                        "dev.rebound.app..")
                .because("the mapper and the wire form of messages and events are shared by RPC, chat files and "
                        + "settings; they may know the chat model they write, nothing that uses them"));
    }

    @Test
    void expiryStoresKnowOnlyFilesAndJson() {
        check(classes()
                .that()
                .resideInAPackage("dev.rebound.expiry..")
                .should()
                .onlyDependOnClassesThat(inAppOnly("dev.rebound.expiry", "dev.rebound.files", "dev.rebound.json"))
                .because("credential blocks and model cooldowns are until-times by key, shared across processes; "
                        + "what they mean is the business of auth and fallback, which use them"));
    }

    @Test
    void pf4jIsUsedOnlyByThePluginHost() {
        check(noClasses()
                .that()
                .resideOutsideOfPackages("dev.rebound.plugin..", "dev.rebound.api..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.pf4j..")
                .because("every call into plugin code must go through the host, which guards, time-limits and "
                        + "attributes it; the rest of the app sees plugins only as reports and published events"));
    }

    @Test
    void loggingGoesThroughSlf4jOnly() {
        check(noClasses()
                .that()
                .haveNameNotMatching("dev\\.rebound\\.app\\.(LoggingSetup|LoggingDefaults|PluginLogLimiter)(\\$.*)?")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.util.logging..",
                        "org.apache.logging..",
                        "org.apache.commons.logging..",
                        "ch.qos.logback..")
                .because("one logging facade keeps every message in the same redacted log file; only the "
                        + "bootstrap configures the backend (its start-up defaults, the log file) and installs the "
                        + "per-plugin line limit, a Logback turbo filter"));
    }

    @Test
    void onlyTheConsoleTouchesStandardOutputAndError() {
        check(noClasses()
                .that()
                .doNotHaveFullyQualifiedName("dev.rebound.app.Console")
                .should()
                .accessField(System.class, "out")
                .orShould()
                .accessField(System.class, "err")
                .because("stdout carries RPC frames and print-mode replies only: a stray println would corrupt "
                        + "the protocol a script is parsing"));
    }

    @Test
    void theUiNeverTalksToProvidersDirectly() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.ui..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rebound.provider..")
                .because("every provider call must go through the session core, where retries, fallbacks and "
                        + "cancellation are decided; a UI shortcut would bypass them")
                .allowEmptyShould(true));
    }

    @Test
    void theUiScriptsTheSimulatorOnlyThroughItsPort() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.ui..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.rebound.simulator..")
                .because("the \"Simulate failures\" menu needs named failures, a count and a speed (ui.model."
                        + "SimulatorPort, implemented in app); the simulator's wire-level fault model and its server "
                        + "stay free to change without touching the desktop"));
    }

    @Test
    void viewModelsUseJavaFxPropertiesButNoNodesStagesOrToolkit() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.ui.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("javafx.scene..", "javafx.stage..", "javafx.application..", "javafx.animation..")
                .because("view-models hold the UI's state and logic and are tested without a toolkit or a robot; "
                        + "nodes, windows, Platform and timelines belong to the views (dev.rebound.ui.view)"));
    }

    @Test
    void theSessionCoreDoesNotDependOnItsHosts() {
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.rebound.session..",
                        "dev.rebound.provider..",
                        "dev.rebound.settings..",
                        "dev.rebound.auth..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.rebound.rpc..", "dev.rebound.ui..", "dev.rebound.app..")
                .because("RPC mode, the desktop UI and print mode are interchangeable hosts of the same core"));
    }

    @Test
    void packagesHaveNoCycles() {
        check(com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices()
                .matching("dev.rebound.(*)..")
                .should()
                .beFreeOfCycles()
                .because("each layer can then be understood, tested and replaced on its own: session, retry, "
                        + "fallback, auth, provider, settings, expiry, files, rpc, ui"));
    }

    @Test
    void providersDoNotKnowAboutSessions() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.provider..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.rebound.session..", "dev.rebound.retry..")
                .because("a provider streams one call and reports facts; deciding what to do about a failure "
                        + "belongs to the session and the retry engine"));
    }

    @Test
    void theSimulatorIsIndependentOfTheCodeItExercises() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.simulator..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.rebound.provider..",
                        "dev.rebound.session..",
                        "dev.rebound.retry..",
                        "dev.rebound.fallback..",
                        "dev.rebound.auth..",
                        "dev.rebound.settings..",
                        "dev.rebound.rpc..",
                        "dev.rebound.app..",
                        "dev.rebound.ui..")
                .because("the simulator stands in for a real provider on the wire: if it shared the provider's or "
                        + "the classifier's code, a bug in that code could hide in both, and the standalone server "
                        + "must run without the app"));
    }

    @Test
    void noJacksonAnnotationsOnRebound() {
        DescribedPredicate<JavaAnnotation<?>> jackson = DescribedPredicate.describe(
                "a Jackson annotation", a -> a.getRawType().getPackageName().startsWith("com.fasterxml.jackson"));
        String why = "Jackson reads an annotation through a proxy class that the JDK generates at run time and the AOT "
                + "cache cannot hold: the seven the mix-ins took cost every start ~27 ms of CPU (docs/startup.md); "
                + "the JSON form is configured in code (Json, WireJson)";
        check(noClasses().should().beAnnotatedWith(jackson).because(why));
        noMembers().should().beAnnotatedWith(jackson).because(why).check(REBOUND);
    }

    @Test
    void onlyTheRetryAndSessionLayersReadTheClockThroughInjection() {
        check(noClasses()
                .that()
                .resideInAnyPackage("dev.rebound.session..", "dev.rebound.retry..")
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(Thread.class, "sleep", long.class)
                .because("retry timing is tested exactly with an injected Clock, never with real sleeps"));
    }

    @Test
    void settingsViewModelsUseJavaFxPropertiesButNoNodesStagesOrToolkit() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.ui.settings.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("javafx.scene..", "javafx.stage..", "javafx.application..", "javafx.animation..")
                .because("the settings window's validation, masking and saving are tested without a toolkit; its "
                        + "nodes and stage belong to dev.rebound.ui.settings"));
    }

    @Test
    void theSettingsWindowReachesProvidersAndPluginsOnlyThroughItsPorts() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.rebound.ui.settings..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.rebound.provider..", "dev.rebound.plugin..", "okhttp3..")
                .because("Test connection and the plugin list go through ConnectionTester and PluginsPort, "
                        + "implemented in dev.rebound.app, so the window stays testable without a network or a "
                        + "plugin host"));
    }
}
