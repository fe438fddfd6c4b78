import { denoAdapter } from "../../src/runtime/adapter_deno.ts";
import { adapterContract } from "../helpers/adapter_contract.ts";

adapterContract("deno", denoAdapter);
