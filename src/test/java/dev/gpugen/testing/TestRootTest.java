package dev.gpugen.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The chroot harness itself: a root is an overlay that never writes the template, is unmounted
 * after its test even when the test fails, and a converged snapshot is shared only by runs of the
 * same input and refuses a playbook that changes something on its second run.
 */
@ChrootTest
class TestRootTest {
  @TempDir Path tmp;

  /** A small play with no network: one file whose text is the variable {@code value}. */
  private static final String PLAY =
      """
      ---
      - name: Write one file
        hosts: all
        gather_facts: false
        tasks:
          - name: Write the value
            ansible.builtin.copy:
              dest: /etc/gpugen-converged
              content: "{{ value }}\\n"
              mode: "0644"
      """;

  @Test
  void aRootIsAnOverlayWhoseWritesNeverReachTheTemplate() throws Exception {
    Path template = RealTools.testRootTemplate();
    String osRelease = Files.readString(template.resolve("etc/os-release"));
    Path root = TestRoot.fresh(tmp.resolve("root"));
    assertTrue(mounted(root), "mounted at " + root);
    Files.delete(root.resolve("etc/os-release"));
    Files.writeString(root.resolve("etc/gpugen-written"), "x\n");
    assertEquals(osRelease, Files.readString(template.resolve("etc/os-release")));
    assertFalse(Files.exists(template.resolve("etc/gpugen-written")));

    Path second = TestRoot.fresh(tmp.resolve("second"));
    assertEquals(
        osRelease, Files.readString(second.resolve("etc/os-release")), "roots share nothing");

    Path upper = TestRoot.upper(root);
    TestRoot.delete(root);
    assertFalse(mounted(root));
    assertFalse(Files.exists(upper), "the layer is deleted with the root");
  }

  /** Where {@link LeavesItsRootMountedAndFails} mounted its root. */
  static Path leftBehind;

  /** A test that mounts a root and fails without unmounting it (run only through the launcher). */
  @ChrootTest
  static class LeavesItsRootMountedAndFails {
    @TempDir Path dir;

    @Test
    void failsWithItsRootMounted() throws Exception {
      leftBehind = TestRoot.fresh(dir.resolve("root"));
      fail("planted failure");
    }
  }

  @Test
  void aRootIsUnmountedAfterItsTestFails() throws Exception {
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(LeavesItsRootMountedAndFails.class))
                .build(),
            listener);
    TestExecutionSummary summary = listener.getSummary();
    assertEquals(1, summary.getTestsFailedCount(), () -> summary.getFailures().toString());
    assertEquals(
        "planted failure", summary.getFailures().get(0).getException().getMessage(), "its own");
    assertTrue(leftBehind != null && !mounted(leftBehind), "unmounted: " + leftBehind);
  }

  @Test
  void aSnapshotIsSharedByTheSameInputOnlyAndStacksWritableRoots() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("play"));
    Files.writeString(dir.resolve("play.yml"), PLAY);
    Converged one = converge(dir, "1");
    assertEquals(1, one.first("testhost").get("changed"), one.first().output());
    assertEquals(0, one.second("testhost").get("changed"), one.second().output());
    assertSame(one, converge(dir, "1"), "the same input runs once");

    Converged two = converge(dir, "2");
    assertNotSame(one, two);
    assertNotEquals(one.key(), two.key());
    Files.writeString(dir.resolve("group_vars.yml"), "# one more file in the folder\n");
    assertNotEquals(one.key(), converge(dir, "1").key(), "every file of the folder is input");

    Path a = one.root("testhost", tmp.resolve("a"));
    Path b = one.root("testhost", tmp.resolve("b"));
    assertEquals("1\n", Files.readString(a.resolve("etc/gpugen-converged")));
    assertEquals(
        "2\n",
        Files.readString(two.root("testhost", tmp.resolve("c")).resolve("etc/gpugen-converged")));
    Files.writeString(a.resolve("etc/gpugen-converged"), "changed in a\n");
    assertEquals("1\n", Files.readString(b.resolve("etc/gpugen-converged")), "b is a's sibling");
    assertEquals(
        "1\n",
        Files.readString(one.root("testhost", tmp.resolve("d")).resolve("etc/gpugen-converged")));
  }

  @Test
  void aPlaybookThatChangesSomethingOnItsSecondRunIsNoSnapshot() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("play"));
    Files.writeString(
        dir.resolve("play.yml"),
        PLAY.replace(
            "content: \"{{ value }}\\n\"", "content: \"{{ lookup('pipe', 'date +%N') }}\\n\""));
    AssertionError e = assertThrows(AssertionError.class, () -> converge(dir, "1"));
    assertTrue(
        String.valueOf(e.getCause()).contains("testhost changed again on the second run"),
        String.valueOf(e.getCause()));
  }

  private static Converged converge(Path dir, String value) throws Exception {
    return Converged.playbook(dir, "play.yml")
        .hosts("testhost")
        .inventory(roots -> RealTools.chrootInventory(roots.get("testhost")))
        .env(RealTools.YAML_INVENTORY)
        .args("-e", "value=" + value)
        .converge();
  }

  private static boolean mounted(Path root) throws Exception {
    RealTools.Result r =
        RealTools.run(
            Path.of("/"), Duration.ofSeconds(30), Map.of(), "findmnt", "-rn", "-o", "TARGET");
    return r.output().lines().anyMatch(l -> l.equals(root.toString()));
  }
}
