/** Entry of the web console bundle (scripts/build-web.mjs). */
import { render } from 'preact';
import { App } from './App.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
