package dev.jpto.isa.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/isa-reference.md is the generated page, current with the op table. After changing the op set, regenerate it:
 * {@code ./test -pl jpto-isa -Dtest=IsaReferenceTest -Djpto.regenerate=true}.
 */
class IsaReferenceTest {
    private static final Path PAGE = Path.of("..", "docs", "isa-reference.md");

    @Test
    void thePageInDocsIsTheGeneratedOne() throws IOException {
        String generated = IsaReference.markdown();
        if (Boolean.getBoolean("jpto.regenerate")) {
            Files.writeString(PAGE, generated);
        }
        assertThat(Files.readString(PAGE)).as("docs/isa-reference.md is stale: regenerate it (see this test's javadoc)")
                .isEqualTo(generated);
    }

    @Test
    void everyMnemonicTheParserAcceptsHasARowAndIsInTheGrammar() {
        String page = IsaReference.markdown();
        for (String mnemonic : Optable.BY_NAME.keySet()) {
            assertThat(page).contains("| `" + mnemonic + "` |");
            assertThat(IsaReference.grammar()).contains("\"" + mnemonic + "\"");
        }
    }
}
