package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The words of commands gpugen prints for pasting; PastedCommandsTest pastes them into dash and
 * bash. Here: the exact text, so that a plain name stays readable.
 */
class ShellCommandTest {
  @Test
  void plainWordsStayAsTheyAre() {
    assertEquals(
        "terraform -chdir=roles-generated/h100-training/terraform init",
        ShellCommand.of("terraform", "-chdir=roles-generated/h100-training/terraform", "init"));
  }

  @Test
  void otherWordsAreSingleQuoted() {
    assertEquals("'my out'", ShellCommand.word("my out"));
    assertEquals("'c$(touch PWNED).yaml'", ShellCommand.word("c$(touch PWNED).yaml"));
    assertEquals("'it'\\''s'", ShellCommand.word("it's"));
    assertEquals("''", ShellCommand.word(""));
    // zsh expands a word starting with '=' to a command's path.
    assertEquals("'=ls'", ShellCommand.word("=ls"));
    assertEquals("'~/x'", ShellCommand.word("~/x"));
  }

  @Test
  void charactersATerminalActsOnBecomePrintfEscapes() {
    assertEquals("'a'\"$(printf '\\033\\1332Jb')\"", ShellCommand.word("a\u001b[2Jb"));
    assertEquals("\"$(printf '\\342\\200\\256x')\"", ShellCommand.word("\u202ex"));
    assertEquals("'a'\"$(printf '\\012b \\047q\\047 \\044x')\"", ShellCommand.word("a\nb 'q' $x"));
  }

  @Test
  void aTrailingLineFeedCannotBeWritten() {
    assertThrows(IllegalArgumentException.class, () -> ShellCommand.word("a\n"));
    assertEquals(true, ShellCommand.problem("a\n").isPresent());
    assertEquals(false, ShellCommand.problem("a\nb").isPresent());
  }
}
