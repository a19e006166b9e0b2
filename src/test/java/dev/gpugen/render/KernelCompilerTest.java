package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TestRoot;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 00 gives DKMS the compiler that built the running kernel and leaves the system compiler to
 * the distribution, with real compilers: the Debian 12 test root keeps its Debian sources, so
 * build-essential brings gcc-12 and g++-12 and the kernel's gcc-11 comes from Debian too; only the
 * kernel's headers are a stand-in. It is the mirror image of Ubuntu 22.04 on its 6.8 kernels (built
 * with gcc-12 while build-essential brings gcc-11): the kernel's compiler is not the default one.
 *
 * <p>Checked with the real tools: a C++ translation unit goes through {@code gcc -E -x c++} and
 * {@code gcc -x c++}, as nvcc runs the host compiler (which needs the cc1plus of gcc's own
 * version); the real DKMS builds a module whose make command receives the kernel's compiler from
 * /etc/dkms/nvidia.conf on its command line. A node an earlier gpugen left with gcc-11 as the gcc
 * alternative (g++ still 12, so that nvcc fails with "cannot execute 'cc1plus'") gets the
 * distribution's gcc back.
 */
@ChrootTest
class KernelCompilerTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(15);
  private static final String KERNEL = "6.8.0-1032-aws";

  /** What nvcc hands the host compiler: C++ that needs the C++ front end and its headers. */
  private static final String TRANSLATION_UNIT =
      "#include <vector>\n"
          + "template <class T> T twice(T x) { return x + x; }\n"
          + "int main() { std::vector<int> v{1}; return twice(v[0]) - 2; }\n";

  @TempDir Path tmp;

  @Test
  @Timeout(value = 30, unit = TimeUnit.MINUTES)
  void dkmsGetsTheKernelsCompilerAndGccStaysAWorkingCxxCompiler() throws Exception {
    Path dir = RenderedCase.render("reference", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    String headers = "usr/src/linux-headers-" + KERNEL + "/";
    List<AptRepositoryStandIn.Deb> debs =
        List.of(
            new AptRepositoryStandIn.Deb(
                "linux-headers-" + KERNEL,
                "6.8.0-1032.34~22.04.1",
                "amd64",
                "",
                Map.of(
                    // The kernel's .config names its compiler, as Ubuntu's header packages do.
                    headers + ".config",
                    "CONFIG_CC_VERSION_TEXT=\"x86_64-linux-gnu-gcc-11 (Debian 11.3.0-12) 11.3.0\"\n"
                        + "CONFIG_MODULES=y\n",
                    headers + "include/linux/gpugen-stand-in.h",
                    "/* stand-in */\n",
                    "lib/modules/" + KERNEL + "/build",
                    AptRepositoryStandIn.SYMLINK + "/" + headers)));
    try (AptRepositoryStandIn archive =
        new AptRepositoryStandIn(tmp, "/ubuntu", "ubuntu-archive", debs)) {
      archive.configure(root);
      Path procVersion = root.resolve("etc/gpugen-test/proc-version");
      Files.createDirectories(procVersion.getParent());
      Files.writeString(
          procVersion,
          "Linux version "
              + KERNEL
              + " (buildd@gpugen) (x86_64-linux-gnu-gcc-11 (Debian 11.3.0-12) 11.3.0, GNU ld"
              + " (GNU Binutils for Debian) 2.40) #34~22.04.1-Ubuntu SMP Fri Jul 18 10:14:15 UTC"
              + " 2025\n");
      Files.writeString(root.resolve("tmp/tu.cpp"), TRANSLATION_UNIT);

      Map<String, Integer> first = play(dir, root, "first run");
      assertEquals(0, first.get("failed"), first::toString);
      assertTrue(first.get("changed") > 0, first::toString);
      Map<String, Integer> second = play(dir, root, "second run");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      // The system compiler is the distribution's: gcc is gcc-12, with g++-12's cc1plus.
      assertFalse(
          Files.exists(root.resolve("etc/alternatives/gcc"), LinkOption.NOFOLLOW_LINKS),
          "a gcc alternative");
      assertEquals(Path.of("gcc-12"), Files.readSymbolicLink(root.resolve("usr/bin/gcc")));
      cxxBuildsTheWayNvccDoes(root);
      // The kernel's compiler is installed, and named for DKMS only.
      assertTrue(chroot(root, "gcc-11", "--version").contains("11.3.0"));
      assertEquals(
          "# Managed by Ansible (gpugen role prerequisites): DKMS reads this file after the nvidia\n"
              + "# package's own dkms.conf; the kernel's compiler is added to its make command.\n"
              + "MAKE[0]=\"${MAKE[0]} CC=/usr/bin/gcc-11\"\n",
          Files.readString(root.resolve("etc/dkms/nvidia.conf")));
      dkmsBuildsWithTheKernelsCompiler(root);

      // A node an earlier gpugen configured: gcc-11 made the gcc alternative. nvcc's way of
      // compiling host code fails there, for want of gcc-11's cc1plus.
      chroot(
          root,
          "update-alternatives",
          "--install",
          "/usr/bin/gcc",
          "gcc",
          "/usr/bin/gcc-11",
          "100");
      RealTools.Result broken = cxx(root, "-E");
      assertTrue(broken.exitCode() != 0, broken.output());
      assertTrue(broken.output().contains("cc1plus"), broken.output());
      Map<String, Integer> repair = play(dir, root, "repair run");
      assertEquals(0, repair.get("failed"), repair::toString);
      assertFalse(
          Files.exists(root.resolve("etc/alternatives/gcc"), LinkOption.NOFOLLOW_LINKS),
          "the alternative stayed");
      assertEquals(Path.of("gcc-12"), Files.readSymbolicLink(root.resolve("usr/bin/gcc")));
      cxxBuildsTheWayNvccDoes(root);
      Map<String, Integer> after = play(dir, root, "run after the repair");
      assertEquals(0, after.get("changed"), "run after the repair changed something: " + after);
      assertEquals(List.of(), archive.misses(), archive.requests()::toString);
    } finally {
      TestRoot.delete(root);
    }
  }

  /** nvcc preprocesses host code with {@code gcc -E -x c++}, then compiles it with gcc -x c++. */
  private static void cxxBuildsTheWayNvccDoes(Path root) throws Exception {
    for (String step : List.of("-E", "-c")) {
      RealTools.Result r = cxx(root, step);
      assertEquals(0, r.exitCode(), "gcc " + step + " -x c++: " + r.output());
    }
  }

  private static RealTools.Result cxx(Path root, String step) throws Exception {
    return RealTools.run(
        Path.of("/"),
        Duration.ofMinutes(2),
        Map.of(),
        "chroot",
        root.toString(),
        "gcc",
        step,
        "-x",
        "c++",
        "-std=c++17",
        "/tmp/tu.cpp",
        "-o",
        "/tmp/tu.out");
  }

  /**
   * The real DKMS builds a module named nvidia whose dkms.conf has the make command of Ubuntu's and
   * NVIDIA's driver packages (exporting CC=/usr/bin/gcc only when /usr/bin/cc is no link); the
   * module's makefile records the CC make was given and compiles with it.
   */
  private static void dkmsBuildsWithTheKernelsCompiler(Path root) throws Exception {
    Path src = root.resolve("usr/src/nvidia-580.95.05");
    Files.createDirectories(src);
    Files.writeString(
        src.resolve("dkms.conf"),
        "PACKAGE_NAME=\"nvidia\"\n"
            + "PACKAGE_VERSION=\"580.95.05\"\n"
            + "AUTOINSTALL=\"yes\"\n"
            + "CLEAN=\"true\"\n"
            + "MAKE[0]=\"unset ARCH; [ ! -h /usr/bin/cc ] && export CC=/usr/bin/gcc; env"
            + " NV_VERBOSE=1 'make' -f gpugen-probe.mk KERNEL_UNAME=${kernelver} modules\"\n"
            + "BUILT_MODULE_NAME[0]=\"nvidia\"\n"
            + "DEST_MODULE_LOCATION[0]=\"/updates/dkms\"\n"
            + "STRIP[0]=\"no\"\n");
    Files.writeString(
        src.resolve("gpugen-probe.mk"),
        "modules:\n"
            + "\t@echo \"$(CC) $(origin CC)\" > /var/tmp/gpugen-dkms-cc\n"
            + "\t$(CC) -c -x c /dev/null -o nvidia.ko\n");
    String out = chroot(root, "dkms", "build", "-m", "nvidia", "-v", "580.95.05", "-k", KERNEL);
    assertTrue(out.contains("modules CC=/usr/bin/gcc-11"), out);
    assertEquals(
        "/usr/bin/gcc-11 command line",
        Files.readString(root.resolve("var/tmp/gpugen-dkms-cc")).strip(),
        out);
    assertTrue(
        Files.exists(
            root.resolve("var/lib/dkms/nvidia/580.95.05/" + KERNEL + "/x86_64/module/nvidia.ko")),
        out);
  }

  /** Play 00 on one chroot host of pool h100, with the fixture of the kernel's /proc/version. */
  private Map<String, Integer> play(Path dir, Path root, String which) throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("inventory.yml"), RealTools.chrootInventory(root, "pool_h100"));
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "ansible-playbook",
                "-i",
                inventory.toString(),
                "--skip-tags",
                "hardware,reboot",
                "-e",
                "prerequisites_proc_version_file=/etc/gpugen-test/proc-version",
                "-e",
                "prerequisites_kernel_release=" + KERNEL,
                // The reference spec mounts FSx for Lustre, whose address only Terraform knows;
                // LustreClientTest covers that role.
                "--skip-tags",
                "lustre_client",
                "00-prerequisites.yml"));
    long start = System.nanoTime();
    RealTools.Result r = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
    System.out.printf(
        "chroot %s: %d ms%n", which, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    RenderedCase.assertExit(0, r);
    return RealTools.recap(r.output(), "testhost");
  }

  private static String chroot(Path root, String... cmd) throws Exception {
    List<String> full = new ArrayList<>(List.of("chroot", root.toString()));
    full.addAll(List.of(cmd));
    RealTools.Result r = RealTools.run(Path.of("/"), Duration.ofMinutes(5), Map.of(), full);
    r.assertOk();
    return r.output();
  }
}
