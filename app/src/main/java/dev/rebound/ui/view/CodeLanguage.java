package dev.rebound.ui.view;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.fife.ui.rsyntaxtextarea.TokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.CPlusPlusTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.CTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.GoTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.JavaScriptTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.JavaTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.JsonTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.PythonTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.RustTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.SQLTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.TypeScriptTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.UnixShellTokenMaker;
import org.fife.ui.rsyntaxtextarea.modes.YamlTokenMaker;

/**
 * The languages whose code blocks are highlighted, named by the first word of a fence's info string ({@code ```py}).
 * Every language but {@link #DIFF} is lexed by one of RSyntaxTextArea's token makers; its class is loaded only when a
 * block of that language is first shown.
 */
enum CodeLanguage {
    JAVA("java"),
    PYTHON("python", "py", "python3"),
    JAVASCRIPT("javascript", "js", "jsx", "mjs", "cjs", "node"),
    TYPESCRIPT("typescript", "ts", "tsx"),
    JSON("json", "jsonc", "json5"),
    SHELL("shell", "sh", "bash", "zsh", "console", "shellsession", "ksh"),
    SQL("sql", "mysql", "postgresql", "postgres", "psql", "sqlite", "plsql"),
    YAML("yaml", "yml"),
    GO("go", "golang"),
    RUST("rust", "rs"),
    C("c"),
    CPP("cpp", "c++", "cc", "cxx", "h", "hpp", "hh", "hxx"),
    DIFF("diff", "patch", "udiff");

    private static final Map<String, CodeLanguage> BY_NAME = byName();

    private final String[] names;

    CodeLanguage(String... names) {
        this.names = names;
    }

    /**
     * The language a fence's info string names (its first word, any case; a leading {@code .} or a {@code {.lang}}
     * attribute block is accepted), or empty when it names none of these: such a block is shown plain, never guessed.
     */
    static Optional<CodeLanguage> ofInfo(String info) {
        if (info == null || info.isBlank()) {
            return Optional.empty();
        }
        String word = info.strip().split("[\\s,]+", 2)[0].toLowerCase(Locale.ROOT);
        if (word.startsWith("{") && word.endsWith("}")) {
            word = word.substring(1, word.length() - 1);
        }
        if (word.startsWith(".")) {
            word = word.substring(1);
        }
        if (word.startsWith("language-")) {
            word = word.substring("language-".length());
        }
        return Optional.ofNullable(BY_NAME.get(word));
    }

    /**
     * A new token maker for this language (not for {@link #DIFF}); each one keeps state, so one per code block. The
     * constructors are method references so that only the chosen language's class is loaded (plain {@code new}
     * expressions here made the verifier load all twelve, about 450 KB of classes, with the first code block).
     */
    TokenMaker tokenMaker() {
        Supplier<TokenMaker> maker = switch (this) {
            case JAVA -> JavaTokenMaker::new;
            case PYTHON -> PythonTokenMaker::new;
            case JAVASCRIPT -> JavaScriptTokenMaker::new;
            case TYPESCRIPT -> TypeScriptTokenMaker::new;
            case JSON -> JsonTokenMaker::new;
            case SHELL -> UnixShellTokenMaker::new;
            case SQL -> SQLTokenMaker::new;
            case YAML -> YamlTokenMaker::new;
            case GO -> GoTokenMaker::new;
            case RUST -> RustTokenMaker::new;
            case C -> CTokenMaker::new;
            case CPP -> CPlusPlusTokenMaker::new;
            case DIFF -> throw new IllegalStateException("diff is lexed by its first characters, not a token maker");
        };
        return maker.get();
    }

    private static Map<String, CodeLanguage> byName() {
        java.util.HashMap<String, CodeLanguage> map = new java.util.HashMap<>();
        for (CodeLanguage language : values()) {
            for (String name : language.names) {
                map.put(name, language);
            }
        }
        return Map.copyOf(map);
    }
}
