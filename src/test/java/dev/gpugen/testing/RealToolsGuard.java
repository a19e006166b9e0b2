package dev.gpugen.testing;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Opens the gate {@link RealTools#start} checks, for the duration of a {@link RealToolsTest} class
 * (including its {@code @BeforeAll}) or method, and remembers its JUnit tags so that the costly
 * programs can ask for theirs ({@code terraform} for {@link TerraformTest}, ...). Tests of one JVM
 * run on one thread, one at a time (Surefire forks JVMs for parallelism, JUnit's parallel mode is
 * off), so a stack is enough.
 */
public final class RealToolsGuard
    implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final Deque<Set<String>> OPEN = new ArrayDeque<>();

  static synchronized boolean isOpen() {
    return !OPEN.isEmpty();
  }

  /** Whether the running test (or its class) carries {@code tag}. */
  static synchronized boolean hasTag(String tag) {
    return OPEN.stream().anyMatch(tags -> tags.contains(tag));
  }

  private static synchronized void enter(ExtensionContext context) {
    OPEN.push(Set.copyOf(context.getTags()));
  }

  private static synchronized void leave() {
    OPEN.pop();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    enter(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    leave();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    enter(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    leave();
  }
}
