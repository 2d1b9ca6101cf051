/**
 * The entry @vscode/test-electron loads in the extension host (extensionTestsPath, bundled by
 * scripts/e2e/run-vscode-tests.mjs): runs the cases of extension.test.ts in order, prints one line per case and
 * the closing count, and rejects if any failed, which makes VS Code exit with a failure code.
 */
import { HOST_CASES } from './extension.test';

/** Runs every case; rejects naming the failed ones. */
export async function run(): Promise<void> {
  const failed: string[] = [];
  for (const hostCase of HOST_CASES) {
    try {
      await hostCase.run();
      console.log(`ok - ${hostCase.name}`);
    } catch (error: unknown) {
      failed.push(hostCase.name);
      console.log(`not ok - ${hostCase.name}`);
      console.log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  }
  console.log(`${HOST_CASES.length - failed.length} passed, ${failed.length} failed`);
  if (failed.length > 0) {
    throw new Error(`extension-host cases failed: ${failed.join('; ')}`);
  }
}
